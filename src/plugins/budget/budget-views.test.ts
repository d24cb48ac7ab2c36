import { describe, expect, it } from 'vitest';
import { budgetStatus } from './budget-status.ts';
import { budgetPanel, budgetSegment } from './budget-views.ts';

const now = new Date(2026, 10, 30, 15);
const day = { id: 'day-usd', period: 'day' as const, unit: 'usd' as const, limit: 5 };
const month = { id: 'month-tokens', period: 'month' as const, unit: 'tokens' as const, limit: 1_000_000 };

const input = (spentDay: number) => ({ statuses: [budgetStatus(day, spentDay), budgetStatus(month, 500_000)], now, sessionId: null, notes: [] });

describe('budget views', () => {
  it('the status bar shows the budget closest to its limit, marked when it warns or blocks', () => {
    expect(budgetSegment(input(1)).text).toBe('Month 50% of tokens');
    expect(budgetSegment(input(4.5)).text).toBe('⚠ Day $4.50/$5.00');
    expect(budgetSegment(input(6)).text).toBe('⛔ Day $6.00/$5.00');
    expect(budgetSegment(input(1)).tooltip).toBe(
      'Daily budget (money): $1.00 of $5.00 (20%), resets at midnight (2026-12-01 00:00)\nMonthly budget (tokens): 500,000 tokens of 1,000,000 tokens (50%), resets on the 1st (2026-12-01 00:00)',
    );
  });

  it('the panel bar never runs past its end, while its label says what was spent', () => {
    const panel = budgetPanel({ statuses: [budgetStatus(day, 6)], now, sessionId: null, notes: [] });
    expect(panel.sections[0]!.rows[0]).toEqual({ type: 'progress', label: '$6.00 of $5.00 (120%)', value: 5, max: 5 });
    expect(panel.sections[0]!.rows.at(-1)).toEqual({ type: 'text', text: expect.stringMatching(/^⛔ The daily budget of \$5\.00 is used up/) });
  });

  it('with no budget, the panel says how to add one and has no actions', () => {
    const panel = budgetPanel({ statuses: [], now, sessionId: null, notes: [] });
    expect(panel.actions).toEqual([]);
    expect(panel.sections[0]!.rows[0]).toEqual({ type: 'text', text: expect.stringContaining('/budget set day 5') });
    expect(budgetSegment({ statuses: [], now, sessionId: null, notes: [] }).text).toBe('');
  });
});
