import { z } from 'zod';

/** Layer 1 of context compression (`context.maskAfterTokens`, `context.maskBatchTokens`): 0 tokens after hides nothing. */
export const ContextMasking = z
  .object({
    maskAfterTokens: z.number().int().min(0).max(10_000_000),
    maskBatchTokens: z.number().int().min(0).max(10_000_000),
  })
  .strict();
export type ContextMasking = z.infer<typeof ContextMasking>;

/** How one message of the branch reaches the model now (see the Context view). */
export const ContextItemState = z.enum(['kept', 'masked', 'repeat', 'loop', 'summary']);
export type ContextItemState = z.infer<typeof ContextItemState>;

/** What the model sees now for a conversation's branch, message by message, and the compaction that cut it. */
export const ContextView = z.object({
  /** The branch's model and its context window (null when no model is chosen or the window is unknown). */
  model: z.object({ provider: z.string(), modelId: z.string() }).nullable(),
  window: z.number().nullable(),
  /** Estimated tokens of the messages as the next request would carry them, and as stored. */
  sentTokens: z.number(),
  storedTokens: z.number(),
  /** The newest compaction on the branch, with the entry a restore branches from. */
  compaction: z
    .object({
      entryId: z.string(),
      summary: z.string(),
      tokensBefore: z.number(),
      /** The entry before the compaction: a restore moves the branch there, the whole history in view again. */
      restoreFrom: z.string().nullable(),
      timestamp: z.string(),
    })
    .nullable(),
  items: z.array(
    z.object({
      entryId: z.string(),
      role: z.string(),
      state: ContextItemState,
      /** Estimated tokens as stored, and as sent (0 when left out). */
      tokens: z.number(),
      sentTokens: z.number(),
      toolName: z.string().optional(),
      preview: z.string(),
    }),
  ),
  /** Items past the newest ones listed (the view lists at most a few thousand). */
  omitted: z.number(),
});
export type ContextView = z.infer<typeof ContextView>;
