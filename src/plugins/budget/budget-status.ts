import { z } from 'zod';
import { type BudgetPeriod, periodAdjective } from './budget-period.ts';

/** Money is US dollars (model prices are dollars per million tokens); tokens count every token billed. */
export const BudgetUnit = z.enum(['usd', 'tokens']);
export type BudgetUnit = z.infer<typeof BudgetUnit>;

export interface Budget {
  /** `${period}-${unit}`: one budget per period and unit. */
  id: string;
  period: BudgetPeriod;
  unit: BudgetUnit;
  limit: number;
}

export function budgetId(period: BudgetPeriod, unit: BudgetUnit): string {
  return `${period}-${unit}`;
}

/** Warn from 80% used; block from 100%. */
export const DEFAULT_WARN_AT = 0.8;

export type BudgetLevel = 'ok' | 'warning' | 'exhausted';

export interface BudgetStatus {
  budget: Budget;
  spent: number;
  /** spent / limit; may pass 1. */
  fraction: number;
  level: BudgetLevel;
  /** The sentence for the user when the level is not ok. */
  message: string | null;
}

export function budgetStatus(budget: Budget, spent: number, warnAt: number = DEFAULT_WARN_AT): BudgetStatus {
  const fraction = budget.limit > 0 ? spent / budget.limit : Number.POSITIVE_INFINITY;
  if (fraction >= 1) return { budget, spent, fraction, level: 'exhausted', message: blockedMessage(budget, spent) };
  if (fraction >= warnAt) return { budget, spent, fraction, level: 'warning', message: warningMessage(budget, spent, fraction) };
  return { budget, spent, fraction, level: 'ok', message: null };
}

/** "The daily budget of $5.00 is used up ($5.02 spent). Raise it in the Budget panel or with /budget set day 10." */
export function blockedMessage(budget: Budget, spent: number): string {
  const raised = raisedLimit(budget.limit, spent);
  return (
    `The ${periodAdjective(budget.period)} budget of ${formatAmount(budget.unit, budget.limit)} is used up (${formatAmount(budget.unit, spent)} spent). ` +
    `Raise it in the Budget panel or with ${setCommand(budget.period, budget.unit, raised)}.`
  );
}

export function warningMessage(budget: Budget, spent: number, fraction: number): string {
  return `The ${periodAdjective(budget.period)} budget is ${Math.floor(fraction * 100)}% used (${formatAmount(budget.unit, spent)} of ${formatAmount(budget.unit, budget.limit)}).`;
}

/** The command that sets a budget, as the user would type it. */
export function setCommand(period: BudgetPeriod, unit: BudgetUnit, limit: number): string {
  return `/budget set ${period} ${formatNumber(limit)}${unit === 'tokens' ? ' tokens' : ''}`;
}

/** A round limit at least twice the old one and above what is already spent: 5 → 10, 200000 → 400000. */
export function raisedLimit(limit: number, spent: number): number {
  return roundUpNicely(Math.max(limit * 2, spent * 1.25, Number.MIN_VALUE));
}

/** Rounds up to a multiple of half the value's power of ten: 10 → 10, 12.4 → 15, 0.61 → 0.65. */
export function roundUpNicely(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return value;
  const step = 10 ** Math.floor(Math.log10(value)) / 2;
  return Number((Math.ceil(Number((value / step).toPrecision(12))) * step).toPrecision(12));
}

/** `$5.00`, `$0.0042`, `200,000 tokens`. */
export function formatAmount(unit: BudgetUnit, amount: number): string {
  if (unit === 'tokens') return `${Math.round(amount).toLocaleString('en-US')} tokens`;
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  return `${sign}$${abs > 0 && abs < 0.01 ? abs.toFixed(4) : abs.toFixed(2)}`;
}

/** A number as a command argument: no exponent, no float noise (`0.6`, not `0.6000000000000001`). */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}
