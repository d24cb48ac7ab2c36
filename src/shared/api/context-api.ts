import { z } from 'zod';

/** Layer 1 of context compression (`context.maskAfterTokens`, `context.maskBatchTokens`): 0 tokens after hides nothing. */
export const ContextMasking = z
  .object({
    maskAfterTokens: z.number().int().min(0).max(10_000_000),
    maskBatchTokens: z.number().int().min(0).max(10_000_000),
  })
  .strict();
export type ContextMasking = z.infer<typeof ContextMasking>;
