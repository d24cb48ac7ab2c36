import { z } from 'zod';

/** One row of the sessions list. */
export const SessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  leafId: z.string().nullable(),
  messageCount: z.number().int().nonnegative(),
  preview: z.string(),
  cwd: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;
