import { z } from 'zod';

// A budget counts spend over one period. Day and month follow the clock of the machine (local time), so a
// daily budget starts again at the user's midnight, whatever the time zone or a DST change does to UTC.

export const BudgetPeriod = z.enum(['session', 'day', 'month']);
export type BudgetPeriod = z.infer<typeof BudgetPeriod>;

export const BUDGET_PERIODS: readonly BudgetPeriod[] = BudgetPeriod.options;

/**
 * The bucket spend is added to for this period at `now`: `day:2026-11-30`, `month:2026-11`, `session:<id>`.
 * Null for a session budget when no session is known.
 */
export function bucketKey(period: BudgetPeriod, now: Date, sessionId: string | null): string | null {
  switch (period) {
    case 'session':
      return sessionId === null ? null : `session:${sessionId}`;
    case 'day':
      return `day:${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    case 'month':
      return `month:${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
  }
}

/** When the period that holds `now` ends (local midnight), or null for a session, which ends with the session. */
export function nextReset(period: BudgetPeriod, now: Date): Date | null {
  switch (period) {
    case 'session':
      return null;
    case 'day':
      // The Date constructor rolls over month and year ends and lands on local midnight across DST changes.
      return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    case 'month':
      return new Date(now.getFullYear(), now.getMonth() + 1, 1);
  }
}

/** When the budget starts again, as a person reads it: "at midnight (2026-12-01 00:00)". */
export function describeReset(period: BudgetPeriod, now: Date): string {
  const at = nextReset(period, now);
  if (!at) return 'with each new session';
  const stamp = formatLocal(at);
  return period === 'day' ? `at midnight (${stamp})` : `on the 1st (${stamp})`;
}

/** `YYYY-MM-DD HH:mm` in local time. */
export function formatLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The adjective for a period in sentences: "the daily budget". */
export function periodAdjective(period: BudgetPeriod): string {
  return period === 'session' ? 'session' : period === 'day' ? 'daily' : 'monthly';
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
