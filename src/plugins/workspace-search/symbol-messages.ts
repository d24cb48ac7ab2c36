import { z } from 'zod';
import { MAX_INDEXED_BYTES } from './read-indexable.ts';

/**
 * What the index thread asks the symbol worker: the symbols of one file's text (`text`), or (`file`, an absolute
 * path the index's walk found) to read the file as the index does (see readIndexable) and give what the index keeps
 * of it, its symbols included: the reading and splitting, and their garbage, stay in the worker.
 */
export const SymbolRequest = z.union([
  z.object({ id: z.number().int(), path: z.string().max(4096), text: z.string() }),
  z.object({ id: z.number().int(), path: z.string().max(4096), file: z.string().max(4096) }),
]);
export type SymbolRequest = z.infer<typeof SymbolRequest>;

const Tags = z
  .array(
    z.object({
      name: z.string().max(200),
      kind: z.enum(['def', 'ref']),
      type: z.string().max(100),
      line: z.number().int().positive(),
    }),
  )
  .max(5000);

/** A file as the worker read it: null `bytes` when it is binary or too big; `parts` its identifiers' parts, space-separated. */
export const PreparedFile = z.object({
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().nonnegative(),
  bytes: z.custom<Uint8Array>((bytes) => bytes instanceof Uint8Array && bytes.byteLength <= MAX_INDEXED_BYTES).nullable(),
  parts: z.string().max(4 * 1024 * 1024),
});
export type PreparedFile = z.infer<typeof PreparedFile>;

/** The worker's answer to a SymbolRequest of the same id; for a `file` request also `read`, null when it is not a regular file inside the root. */
export const SymbolReply = z.object({ id: z.number().int(), tags: Tags, read: PreparedFile.nullable().optional() });
export type SymbolReply = z.infer<typeof SymbolReply>;
