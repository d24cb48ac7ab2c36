import { z } from 'zod';
import { Entry } from './entry.ts';
import { SessionIntegrity } from './session-integrity.ts';

/** A page of the current branch, oldest first; `before` pages further up toward the root. */
export const TranscriptPage = z.object({
  entries: z.array(Entry),
  /** Pass as `before` to load the next older page; null when the root is reached. */
  before: z.string().nullable(),
  leafId: z.string().nullable(),
  /** What the store knows of the session's hashes: this page, the path to the model, and any full check. */
  integrity: SessionIntegrity,
});
export type TranscriptPage = z.infer<typeof TranscriptPage>;
