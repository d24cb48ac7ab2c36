import { describe, expect, it } from 'vitest';
import { findPricing, spendOfUsage } from './spend-of-usage.ts';

describe('spend of one call', () => {
  const pricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it('is usage times the model price per million tokens', () => {
    const spend = spendOfUsage({ input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 0 }, pricing);
    expect(spend.usd).toBeCloseTo(3 + 1.5 + 0.6, 10);
    expect(spend.tokens).toBe(3_100_000);
  });

  it('takes the cost the provider reported when the price is not known here', () => {
    const spend = spendOfUsage({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 } });
    expect(spend).toEqual({ usd: 0.25, tokens: 15 });
  });

  it('counts tokens even when nothing says what they cost', () => {
    expect(spendOfUsage({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 20 })).toEqual({ usd: 0, tokens: 20 });
  });

  it('finds a price by provider and model, then by model', () => {
    const prices = { 'openrouter/m': { ...pricing, input: 1 }, m: pricing };
    expect(findPricing(prices, 'openrouter', 'm')?.input).toBe(1);
    expect(findPricing(prices, 'deepseek', 'm')?.input).toBe(3);
    expect(findPricing(prices, 'deepseek', 'other')).toBeUndefined();
    expect(findPricing(prices, 'deepseek', undefined)).toBeUndefined();
  });
});
