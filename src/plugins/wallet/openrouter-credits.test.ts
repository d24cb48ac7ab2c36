import { describe, expect, it } from 'vitest';
import { parseOpenRouterCredits } from './openrouter-credits.ts';

const source = { service: 'OpenRouter', configKey: 'openrouter', url: 'http://127.0.0.1:1/api/v1/credits' };

describe("OpenRouter's credits", () => {
  it('the balance is what was bought minus what was used, in dollars', () => {
    const reading = parseOpenRouterCredits(source, { data: { total_credits: 100.5, total_usage: 25.75 } });
    expect(reading).toEqual({
      ok: true,
      balance: 74.75,
      currency: 'USD',
      available: true,
      details: [
        { key: 'Purchased', value: '$100.50' },
        { key: 'Used', value: '$25.75' },
      ],
    });
  });

  it('an account that used everything has nothing available', () => {
    const reading = parseOpenRouterCredits(source, { data: { total_credits: 10, total_usage: 10 } });
    expect(reading.ok && reading.available).toBe(false);
  });

  it('an answer without data is an error naming the missing field and the base URL to check', () => {
    const reading = parseOpenRouterCredits(source, { credits: 5 });
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.failure).toBe('bad_response');
    expect(reading.error).toContain('data');
    expect(reading.error).toContain('openrouter.baseUrl');
  });

  it('numbers sent as strings are not credits', () => {
    const reading = parseOpenRouterCredits(source, { data: { total_credits: '10', total_usage: 1 } });
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.error).toContain('data.total_credits');
  });
});
