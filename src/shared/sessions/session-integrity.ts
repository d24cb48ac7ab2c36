import { z } from 'zod';

/**
 * Whether a session's entries still match their chained hashes. `changed` names the entries that were
 * altered outside Amber; a session with any is read-only.
 */
export const SessionIntegrity = z.object({
  ok: z.boolean(),
  changed: z.array(z.string()),
});
export type SessionIntegrity = z.infer<typeof SessionIntegrity>;
