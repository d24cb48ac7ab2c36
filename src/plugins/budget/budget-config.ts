import { z } from 'zod';
import { BudgetPeriod } from './budget-period.ts';
import { type Budget, budgetId, BudgetUnit, DEFAULT_WARN_AT } from './budget-status.ts';
import { Pricing } from './spend-of-usage.ts';

const ConfigBudget = z.object({ period: BudgetPeriod, unit: BudgetUnit.default('usd'), limit: z.number().positive() });

/**
 * The budget plugin's config (`plugin.budget.config`):
 *   limits   { sessionUsd?, dayUsd?, monthUsd?, sessionTokens?, dayTokens?, monthTokens? } — the form in
 *            Settings (the manifest's `configuration`) sets these; limits set with /budget win
 *   budgets  [{ period: 'session'|'day'|'month', unit?: 'usd'|'tokens', limit }] — the older list form; a
 *            limit under `limits` wins over one here
 *   warnAt   fraction of a limit from which checks warn (default 0.8)
 *   providers provider ids whose spend the budgets count and whose calls they guard; empty or absent: all
 *   prices   { 'provider/model' | 'model': { input, output, cacheRead?, cacheWrite? } } in $ per million
 *            tokens; without one, a call costs what its provider reported (usage × the model's pricing)
 *   dataDir  the folder the plugin keeps its spend in (budget.json)
 */
const Limit = z.number().positive().optional();
const LIMIT_KEYS = {
  sessionUsd: ['session', 'usd'],
  dayUsd: ['day', 'usd'],
  monthUsd: ['month', 'usd'],
  sessionTokens: ['session', 'tokens'],
  dayTokens: ['day', 'tokens'],
  monthTokens: ['month', 'tokens'],
} as const;

const fields = {
  limits: z.object({ sessionUsd: Limit, dayUsd: Limit, monthUsd: Limit, sessionTokens: Limit, dayTokens: Limit, monthTokens: Limit }),
  budgets: z.array(ConfigBudget),
  warnAt: z.number().gt(0).lte(1),
  providers: z.array(z.string().trim().min(1)).max(256),
  prices: z.record(z.string(), Pricing),
  dataDir: z.string().min(1),
};

export interface BudgetConfig {
  budgets: Budget[];
  warnAt: number;
  /** The providers the budgets count and guard; empty: every provider. */
  providers: string[];
  prices: Record<string, Pricing>;
  dataDir: string | undefined;
  /** Config values that were ignored, with why, for the log. */
  problems: string[];
}

/** Reads each key on its own: one bad value is ignored (and named) without losing the others. */
export function readBudgetConfig(raw: Record<string, unknown>): BudgetConfig {
  const problems: string[] = [];
  const read = <K extends keyof typeof fields>(key: K): z.infer<(typeof fields)[K]> | undefined => {
    if (raw[key] === undefined) return undefined;
    const parsed = fields[key].safeParse(raw[key]);
    if (parsed.success) return parsed.data as z.infer<(typeof fields)[K]>;
    const issue = parsed.error.issues[0];
    problems.push(`The budget setting '${[key, ...(issue?.path ?? [])].join('.')}' was ignored: ${issue?.message ?? 'invalid'}.`);
    return undefined;
  };
  const budgets = new Map<string, Budget>();
  for (const b of read('budgets') ?? []) budgets.set(budgetId(b.period, b.unit), { id: budgetId(b.period, b.unit), ...b });
  const limits = read('limits') ?? {};
  for (const [key, [period, unit]] of Object.entries(LIMIT_KEYS)) {
    const limit = limits[key as keyof typeof LIMIT_KEYS];
    if (limit !== undefined) budgets.set(budgetId(period, unit), { id: budgetId(period, unit), period, unit, limit });
  }
  return {
    budgets: [...budgets.values()],
    warnAt: read('warnAt') ?? DEFAULT_WARN_AT,
    providers: read('providers') ?? [],
    prices: read('prices') ?? {},
    dataDir: read('dataDir'),
    problems,
  };
}
