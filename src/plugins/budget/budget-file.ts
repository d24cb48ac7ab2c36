import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BudgetLedgerData } from './budget-ledger.ts';

export const BUDGET_FILE_NAME = 'budget.json';

export interface LoadedLedger {
  data: BudgetLedgerData | undefined;
  /** Why the file could not be used (it is then set aside, not overwritten), as a sentence. */
  problem: string | null;
}

/**
 * The budget plugin's spend and limits in `<dir>/budget.json`. Each save writes a temporary file and renames
 * it over the old one, so a crash leaves either the old or the new ledger, never half of one.
 */
export class BudgetFile {
  readonly path: string;
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
    this.path = join(dir, BUDGET_FILE_NAME);
  }

  load(now: number = Date.now()): LoadedLedger {
    if (!existsSync(this.path)) return { data: undefined, problem: null };
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (e) {
      return this.#setAside(now, `it is not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const parsed = BudgetLedgerData.safeParse(raw);
    if (!parsed.success) return this.#setAside(now, `it is not a budget ledger (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return { data: parsed.data, problem: null };
  }

  save(data: BudgetLedgerData): void {
    mkdirSync(this.#dir, { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data)}\n`);
    renameSync(tmp, this.path);
  }

  #setAside(now: number, why: string): LoadedLedger {
    const aside = `${this.path}.unreadable-${now}`;
    try {
      renameSync(this.path, aside);
    } catch {
      // Left in place: the next save replaces it.
    }
    return { data: undefined, problem: `The saved spend in ${this.path} could not be read: ${why}. It was moved to ${aside}, and spend is counted from zero.` };
  }
}
