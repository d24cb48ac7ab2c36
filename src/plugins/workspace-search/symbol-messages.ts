import { z } from 'zod';

/** What the index thread asks the symbol worker: the symbols of one file's text. */
export const SymbolRequest = z.object({ id: z.number().int(), path: z.string().max(4096), text: z.string() });
export type SymbolRequest = z.infer<typeof SymbolRequest>;

/** The worker's answer to a SymbolRequest of the same id. */
export const SymbolReply = z.object({
  id: z.number().int(),
  tags: z
    .array(
      z.object({
        name: z.string().max(200),
        kind: z.enum(['def', 'ref']),
        type: z.string().max(100),
        line: z.number().int().positive(),
      }),
    )
    .max(5000),
});
export type SymbolReply = z.infer<typeof SymbolReply>;
