import { describe, expect, it } from 'vitest';
import { BudgetLedger, BudgetLedgerData, resolveBudgets } from './budget-ledger.ts';
import type { Budget } from './budget-status.ts';

const daily: Budget = { id: 'day-usd', period: 'day', unit: 'usd', limit: 5 };
const monthlyTokens: Budget = { id: 'month-tokens', period: 'month', unit: 'tokens', limit: 1000 };
const session: Budget = { id: 'session-usd', period: 'session', unit: 'usd', limit: 1 };

describe('the budget ledger', () => {
  it('adds spend to the day, the month and the session', () => {
    const ledger = new BudgetLedger();
    const now = new Date(2026, 10, 30, 10);
    ledger.record({ usd: 1.5, tokens: 300 }, now, 's1', 'e1');
    ledger.record({ usd: 0.5, tokens: 200 }, now, 's2', 'e2');
    expect(ledger.spent(daily, now, 's1')).toBe(2);
    expect(ledger.spent(monthlyTokens, now, null)).toBe(500);
    expect(ledger.spent(session, now, 's1')).toBe(1.5);
    expect(ledger.spent(session, now, null)).toBe(0);
  });

  it('counts an entry delivered twice once', () => {
    const ledger = new BudgetLedger();
    const now = new Date(2026, 10, 30, 10);
    expect(ledger.record({ usd: 1, tokens: 1 }, now, 's1', 'e1')).toBe(true);
    expect(ledger.record({ usd: 1, tokens: 1 }, now, 's1', 'e1')).toBe(false);
    expect(ledger.spent(daily, now, 's1')).toBe(1);
  });

  it('starts a new day at local midnight and a new month on the 1st', () => {
    const ledger = new BudgetLedger();
    ledger.record({ usd: 4, tokens: 800 }, new Date(2026, 10, 30, 23, 59), 's1');
    const nextDay = new Date(2026, 11, 1, 0, 1);
    expect(ledger.spent(daily, nextDay, 's1')).toBe(0);
    expect(ledger.spent(monthlyTokens, nextDay, 's1')).toBe(0);
    expect(ledger.spent(monthlyTokens, new Date(2026, 10, 1), 's1')).toBe(800);
    expect(ledger.spent(session, nextDay, 's1')).toBe(4);
  });

  it('a reset counts the period from zero again, and later spend still counts', () => {
    const ledger = new BudgetLedger();
    const now = new Date(2026, 10, 30, 10);
    ledger.record({ usd: 4, tokens: 0 }, now, 's1');
    ledger.reset(daily, now, 's1');
    expect(ledger.spent(daily, now, 's1')).toBe(0);
    ledger.record({ usd: 0.75, tokens: 0 }, now, 's1');
    expect(ledger.spent(daily, now, 's1')).toBe(0.75);
    // The reset was for that day only.
    ledger.record({ usd: 2, tokens: 0 }, new Date(2026, 11, 1, 9), 's1');
    expect(ledger.spent(daily, new Date(2026, 11, 1, 9), 's1')).toBe(2);
  });

  it('round-trips through its JSON form', () => {
    const ledger = new BudgetLedger();
    const now = new Date(2026, 10, 30, 10);
    ledger.record({ usd: 3, tokens: 9 }, now, 's1', 'e1');
    ledger.setLimit('day-usd', 10);
    const copy = new BudgetLedger(BudgetLedgerData.parse(JSON.parse(JSON.stringify(ledger.toJSON()))));
    expect(copy.spent(daily, now, 's1')).toBe(3);
    expect(copy.limitOverrides()).toEqual({ 'day-usd': 10 });
    expect(copy.record({ usd: 3, tokens: 9 }, now, 's1', 'e1')).toBe(false);
  });

  it('drops days older than its window', () => {
    const ledger = new BudgetLedger();
    ledger.record({ usd: 1, tokens: 0 }, new Date(2026, 0, 1), null);
    ledger.record({ usd: 1, tokens: 0 }, new Date(2026, 10, 30), null);
    expect(Object.keys(ledger.toJSON().totals).filter((k) => k.startsWith('day:'))).toEqual(['day:2026-11-30']);
  });
});

describe('budgets in force', () => {
  it('the user’s limits win over the config’s, and null removes one', () => {
    const budgets = resolveBudgets([daily, monthlyTokens], { 'day-usd': 10, 'month-tokens': null, 'session-tokens': 5000 });
    expect(budgets).toEqual([
      { id: 'session-tokens', period: 'session', unit: 'tokens', limit: 5000 },
      { id: 'day-usd', period: 'day', unit: 'usd', limit: 10 },
    ]);
  });

  it('ignores overrides with ids it does not know', () => {
    expect(resolveBudgets([], { 'week-usd': 3 })).toEqual([]);
  });
});
