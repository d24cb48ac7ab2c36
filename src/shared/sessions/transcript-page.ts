import { z } from 'zod';
import { Entry } from './entry.ts';

/** A page of the current branch, oldest first; `before` pages further up toward the root. */
export const TranscriptPage = z.object({
  entries: z.array(Entry),
  /** Pass as `before` to load the next older page; null when the root is reached. */
  before: z.string().nullable(),
  leafId: z.string().nullable(),
});
export type TranscriptPage = z.infer<typeof TranscriptPage>;
