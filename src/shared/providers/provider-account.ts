import { z } from 'zod';

/** A provider endpoint the user set up. Its key lives in the secret store, not here. */
export const ProviderAccount = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,40}$/),
  presetId: z.string(),
  dialect: z.enum(['openai-compatible', 'anthropic']),
  name: z.string(),
  baseUrl: z.string(),
  models: z.array(z.string().min(1)).min(1),
  contextWindow: z.number().int().positive(),
});
export type ProviderAccount = z.infer<typeof ProviderAccount>;
