import { z } from 'zod';
import { type BudgetPeriod, bucketKey } from './budget-period.ts';
import type { Budget } from './budget-status.ts';
import type { Spend } from './spend-of-usage.ts';

const Amounts = z.object({ usd: z.number().nonnegative().default(0), tokens: z.number().nonnegative().default(0) });

/** What the budget plugin keeps on disk. Unknown versions are not read (the plugin starts empty and says so). */
export const BudgetLedgerData = z.object({
  version: z.literal(1),
  /** Limits set with /budget or the panel, by budget id; null removes a budget the config sets. */
  limits: z.record(z.string(), z.number().positive().nullable()).default({}),
  /** Spend per bucket (`day:2026-11-30`, `month:2026-11`, `session:<id>`). */
  totals: z.record(z.string(), Amounts).default({}),
  /** A reset remembers what the bucket held then; spend counts from there. By budget id. */
  baselines: z.record(z.string(), z.object({ bucket: z.string(), amount: z.number().nonnegative() })).default({}),
  /** Ids of the entries already counted, newest last, so an event delivered twice is counted once. */
  counted: z.array(z.string()).default([]),
});
export type BudgetLedgerData = z.infer<typeof BudgetLedgerData>;

const KEEP_DAYS = 40;
const KEEP_MONTHS = 24;
const KEEP_SESSIONS = 200;
const KEEP_COUNTED = 1000;

/** Spend per period and the limits the user set, in memory. Pure: saving is the caller's job. */
export class BudgetLedger {
  #data: BudgetLedgerData;

  constructor(data?: BudgetLedgerData) {
    this.#data = data ? structuredClone(data) : BudgetLedgerData.parse({ version: 1 });
  }

  toJSON(): BudgetLedgerData {
    return structuredClone(this.#data);
  }

  /** Adds one call's spend to today's, this month's and the session's buckets. False when the entry was counted already. */
  record(spend: Spend, now: Date, sessionId: string | null, entryId: string | null = null): boolean {
    if (entryId !== null) {
      if (this.#data.counted.includes(entryId)) return false;
      this.#data.counted.push(entryId);
      if (this.#data.counted.length > KEEP_COUNTED) this.#data.counted.splice(0, this.#data.counted.length - KEEP_COUNTED);
    }
    for (const period of ['session', 'day', 'month'] as const) {
      const key = bucketKey(period, now, sessionId);
      if (key === null) continue;
      const held = this.#data.totals[key] ?? { usd: 0, tokens: 0 };
      // Re-inserting keeps the most recently used sessions last, which is what pruning keeps.
      delete this.#data.totals[key];
      this.#data.totals[key] = { usd: held.usd + spend.usd, tokens: held.tokens + spend.tokens };
    }
    this.#prune(now);
    return true;
  }

  /** What the budget's current period has spent, in its unit, since its last reset. */
  spent(budget: Budget, now: Date, sessionId: string | null): number {
    const key = bucketKey(budget.period, now, sessionId);
    if (key === null) return 0;
    const total = this.#data.totals[key]?.[budget.unit] ?? 0;
    const base = this.#data.baselines[budget.id];
    return Math.max(0, total - (base && base.bucket === key ? base.amount : 0));
  }

  /** Starts the budget's current period again from zero (the period's later spend still counts). */
  reset(budget: Budget, now: Date, sessionId: string | null): void {
    const key = bucketKey(budget.period, now, sessionId);
    if (key === null) return;
    this.#data.baselines[budget.id] = { bucket: key, amount: this.#data.totals[key]?.[budget.unit] ?? 0 };
  }

  /** A limit set by the user; null removes the budget, undefined goes back to the config's. */
  setLimit(id: string, limit: number | null | undefined): void {
    if (limit === undefined) delete this.#data.limits[id];
    else this.#data.limits[id] = limit;
  }

  limitOverrides(): Readonly<Record<string, number | null>> {
    return this.#data.limits;
  }

  /** Old days, months and sessions are dropped; what they spent no longer counts toward anything. */
  #prune(now: Date): void {
    const oldestDay = bucketKey('day', new Date(now.getFullYear(), now.getMonth(), now.getDate() - KEEP_DAYS), null)!;
    const keys = Object.keys(this.#data.totals);
    const months = keys.filter((k) => k.startsWith('month:')).sort();
    const sessions = keys.filter((k) => k.startsWith('session:'));
    const drop = new Set<string>([
      ...keys.filter((k) => k.startsWith('day:') && k < oldestDay),
      ...months.slice(0, Math.max(0, months.length - KEEP_MONTHS)),
      ...sessions.slice(0, Math.max(0, sessions.length - KEEP_SESSIONS)),
    ]);
    for (const k of drop) delete this.#data.totals[k];
    for (const [id, base] of Object.entries(this.#data.baselines)) if (drop.has(base.bucket)) delete this.#data.baselines[id];
  }
}

/** The budgets in force: the config's, then the user's changes over them; session, day, month; money first. */
export function resolveBudgets(fromConfig: readonly Budget[], overrides: Readonly<Record<string, number | null>>): Budget[] {
  const byId = new Map<string, Budget>(fromConfig.map((b) => [b.id, b]));
  for (const [id, limit] of Object.entries(overrides)) {
    const [period, unit] = id.split('-') as [BudgetPeriod, Budget['unit']];
    if (limit === null) byId.delete(id);
    else if (['session', 'day', 'month'].includes(period) && ['usd', 'tokens'].includes(unit)) byId.set(id, { id, period, unit, limit });
  }
  return [...byId.values()].sort((a, b) => budgetOrder(a) - budgetOrder(b));
}

function budgetOrder(b: Budget): number {
  return ['session', 'day', 'month'].indexOf(b.period) * 2 + (b.unit === 'usd' ? 0 : 1);
}
