import { describe, expect, it } from 'vitest';
import { type Budget, budgetStatus, formatAmount, raisedLimit, roundUpNicely } from './budget-status.ts';

const daily: Budget = { id: 'day-usd', period: 'day', unit: 'usd', limit: 5 };
const sessionTokens: Budget = { id: 'session-tokens', period: 'session', unit: 'tokens', limit: 200_000 };

describe('budget arithmetic', () => {
  it('is ok below the warning line', () => {
    const s = budgetStatus(daily, 3.99);
    expect(s.level).toBe('ok');
    expect(s.message).toBeNull();
  });

  it('warns from 80% of the limit', () => {
    const s = budgetStatus(daily, 4);
    expect(s.level).toBe('warning');
    expect(s.message).toBe('The daily budget is 80% used ($4.00 of $5.00).');
    expect(budgetStatus(daily, 3.5, 0.7).level).toBe('warning');
  });

  it('is used up at exactly 100%', () => {
    expect(budgetStatus(daily, 5).level).toBe('exhausted');
    expect(budgetStatus(daily, 4.999).level).toBe('warning');
  });

  it('says which budget blocks and how to raise it', () => {
    expect(budgetStatus(daily, 5.02).message).toBe(
      'The daily budget of $5.00 is used up ($5.02 spent). Raise it in the Budget panel or with /budget set day 10.',
    );
    expect(budgetStatus(sessionTokens, 201_345).message).toBe(
      'The session budget of 200,000 tokens is used up (201,345 tokens spent). Raise it in the Budget panel or with /budget set session 400000 tokens.',
    );
  });

  it('suggests a limit above what was spent when spend ran far past the limit', () => {
    expect(raisedLimit(5, 30)).toBeGreaterThan(30);
    expect(raisedLimit(5, 30)).toBe(40);
    expect(raisedLimit(0.3, 0.31)).toBe(0.6);
  });

  it('rounds raised limits to readable numbers', () => {
    expect(roundUpNicely(10)).toBe(10);
    expect(roundUpNicely(12.4)).toBe(15);
    expect(roundUpNicely(0.61)).toBe(0.65);
    expect(roundUpNicely(400_000)).toBe(400_000);
    expect(roundUpNicely(410_000)).toBe(450_000);
  });

  it('formats money and tokens', () => {
    expect(formatAmount('usd', 5)).toBe('$5.00');
    expect(formatAmount('usd', 0.0042)).toBe('$0.0042');
    expect(formatAmount('usd', 0)).toBe('$0.00');
    expect(formatAmount('tokens', 1234567.4)).toBe('1,234,567 tokens');
  });
});
