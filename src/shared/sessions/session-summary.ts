import { z } from 'zod';

/** The conversation and task call a child agent's conversation was started by. */
export const SessionParent = z.object({ sessionId: z.string(), toolCallId: z.string() });
export type SessionParent = z.infer<typeof SessionParent>;

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
  /** Set on a child agent's conversation (the task tool): it is not listed, and opens read-only from its parent's card. */
  parent: SessionParent.optional(),
  /** In a search's results: the words around the match in the conversation's messages. */
  match: z.string().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;
