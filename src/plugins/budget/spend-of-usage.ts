import { z } from 'zod';
import { ModelInfo } from '../../shared/providers/index.ts';
import type { Usage } from '../../shared/sessions/index.ts';

/** A model's prices: US dollars per million tokens, as ModelInfo carries them. */
export const Pricing = ModelInfo.shape.pricing.unwrap();
export type Pricing = z.infer<typeof Pricing>;

export interface Spend {
  usd: number;
  tokens: number;
}

/**
 * What one model call cost. With the model's pricing, dollars are usage × price; without it, the cost the
 * provider already worked out from the same pricing (usage.cost.total), else nothing. Tokens are every
 * token billed: input, output and cache reads and writes.
 */
export function spendOfUsage(usage: Usage, pricing?: Pricing): Spend {
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const tokens = usage.totalTokens ?? usage.input + usage.output + cacheRead + cacheWrite;
  const usd = pricing
    ? (usage.input * pricing.input + usage.output * pricing.output + cacheRead * pricing.cacheRead + cacheWrite * pricing.cacheWrite) / 1e6
    : (usage.cost?.total ?? 0);
  return { usd: Math.max(0, usd), tokens: Math.max(0, tokens) };
}

/** Prices set in the plugin's config win; the key is `provider/model` or just `model`. */
export function findPricing(prices: Record<string, Pricing>, provider: string | undefined, model: string | undefined): Pricing | undefined {
  if (!model) return undefined;
  return (provider ? prices[`${provider}/${model}`] : undefined) ?? prices[model];
}
