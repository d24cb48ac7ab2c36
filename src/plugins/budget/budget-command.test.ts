import { describe, expect, it } from 'vitest';
import { parseBudgetCommand } from './budget-command.ts';

describe('/budget arguments', () => {
  it('shows with no arguments', () => {
    expect(parseBudgetCommand([])).toEqual({ action: 'show' });
  });

  it('sets a money limit by default and token limits when asked', () => {
    expect(parseBudgetCommand(['set', 'day', '10'])).toEqual({ action: 'set', period: 'day', unit: 'usd', limit: 10 });
    expect(parseBudgetCommand(['set', 'month', '$2.50'])).toEqual({ action: 'set', period: 'month', unit: 'usd', limit: 2.5 });
    expect(parseBudgetCommand(['set', 'session', '200k', 'tokens'])).toEqual({ action: 'set', period: 'session', unit: 'tokens', limit: 200_000 });
    expect(parseBudgetCommand(['set', 'daily', '1,000,000', 'tokens'])).toEqual({ action: 'set', period: 'day', unit: 'tokens', limit: 1_000_000 });
  });

  it('resets and clears one unit or the whole period', () => {
    expect(parseBudgetCommand(['reset', 'day'])).toEqual({ action: 'reset', period: 'day', unit: null });
    expect(parseBudgetCommand(['clear', 'month', 'tokens'])).toEqual({ action: 'clear', period: 'month', unit: 'tokens' });
  });

  it('explains what to type when the arguments are wrong', () => {
    expect(parseBudgetCommand(['set', 'week', '10'])).toEqual({ error: expect.stringContaining('session, day or month') });
    expect(parseBudgetCommand(['set', 'day', '-1'])).toEqual({ error: expect.stringContaining('positive limit') });
    expect(parseBudgetCommand(['set', 'day', '0'])).toEqual({ error: expect.stringContaining('positive limit') });
    expect(parseBudgetCommand(['set', 'day', '$5', 'tokens'])).toEqual({ error: expect.stringContaining('dollars') });
    expect(parseBudgetCommand(['raise', 'day'])).toEqual({ error: expect.stringContaining('Unknown /budget action') });
  });
});
