import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { EvalRunRecord } from '../../shared/evals/index.ts';
import { AmberError } from '../errors.ts';
import { isInside } from '../is-inside.ts';
import { readRecords } from './eval-runner.ts';
import { type ModelScore, scoreRuns, type TaskScore } from './eval-scoring.ts';

/** What an eval's folder says about it before any run finished (`eval.json`). */
const EvalMeta = z.object({
  evalId: z.string().min(1).max(200),
  suite: z.string().max(200),
  models: z.array(z.string().max(300)).max(100),
  startedAt: z.number(),
});
export type EvalMeta = z.infer<typeof EvalMeta>;

export interface EvalListing extends EvalMeta {
  dir: string;
  runs: number;
  passes: number;
}

export interface EvalDetail extends Omit<EvalMeta, 'models'> {
  dir: string;
  models: ModelScore[];
  tasks: TaskScore[];
  total: number;
  runs: EvalRunRecord[];
}

/** The most runs one page of an eval holds. */
export const EVAL_PAGE = 200;

/**
 * The evals the window lists: each `amber eval` writes `eval.json` in its folder; folders outside the data
 * folder's `evals` are remembered in its `elsewhere.jsonl`. A folder whose files are missing or do not parse
 * is left out, never an error for the others.
 */
export class EvalLibrary {
  readonly #root: string;

  constructor(dataDir: string) {
    this.#root = join(dataDir, 'evals');
  }

  /** Records an eval as it starts (its folder made, `eval.json` written, an outside folder remembered). */
  begin(dir: string, meta: EvalMeta): void {
    mkdirSync(dir, { recursive: true });
    // A resumed eval keeps when it began.
    if (!readMeta(dir)) writeFileSync(join(dir, 'eval.json'), `${JSON.stringify(meta)}\n`);
    if (!isInside(this.#root, dir)) {
      mkdirSync(this.#root, { recursive: true });
      appendFileSync(join(this.#root, 'elsewhere.jsonl'), `${JSON.stringify({ dir: resolve(dir) })}\n`);
    }
  }

  list(): EvalListing[] {
    const out: EvalListing[] = [];
    for (const dir of this.#folders()) {
      const meta = readMeta(dir);
      if (!meta) continue;
      const runs = readRecords(dir);
      out.push({ ...meta, dir, runs: runs.length, passes: runs.filter((r) => r.passed).length });
    }
    return out.sort((a, b) => b.startedAt - a.startedAt);
  }

  get(evalId: string, offset = 0, limit = EVAL_PAGE): EvalDetail {
    const dir = this.#folders().find((d) => readMeta(d)?.evalId === evalId);
    const meta = dir ? readMeta(dir) : null;
    if (!dir || !meta) throw new AmberError('not_found', `There is no eval ${evalId} any more: its folder was moved or deleted.`);
    const records = readRecords(dir);
    const { models, tasks } = scoreRuns(records);
    return { ...meta, dir, models, tasks, total: records.length, runs: records.slice(offset, offset + Math.min(limit, EVAL_PAGE)) };
  }

  #folders(): string[] {
    if (!existsSync(this.#root)) return [];
    const inside = readdirSync(this.#root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(this.#root, d.name));
    const elsewhere: string[] = [];
    const list = join(this.#root, 'elsewhere.jsonl');
    if (existsSync(list))
      for (const line of readFileSync(list, 'utf8').split('\n')) {
        try {
          const dir = z.object({ dir: z.string().min(1).max(4096) }).parse(JSON.parse(line)).dir;
          if (!elsewhere.includes(dir) && existsSync(dir)) elsewhere.push(dir);
        } catch {
          // A line that does not parse names nothing.
        }
      }
    return [...inside, ...elsewhere];
  }
}

function readMeta(dir: string): EvalMeta | null {
  try {
    const parsed = EvalMeta.safeParse(JSON.parse(readFileSync(join(dir, 'eval.json'), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
