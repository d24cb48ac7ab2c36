import { z } from 'zod';
import { Entry, SessionSummary } from '../sessions/index.ts';

/** Where a child stands: waiting its turn (serial), running, or ended one of four ways (or refused by a limit before it started). */
export const SubagentState = z.enum(['queued', 'running', 'done', 'failed', 'timed_out', 'stopped', 'refused']);
export type SubagentState = z.infer<typeof SubagentState>;

/** One child of a task call, as its row in the tool card shows it. */
export const SubagentView = z.object({
  /** The parent conversation and the task call that started the child. */
  parentSessionId: z.string(),
  toolCallId: z.string(),
  /** Its place in the call's task list (0-based). */
  index: z.number().int().nonnegative(),
  /** The child's own conversation; null when a limit refused it before it started. */
  childSessionId: z.string().nullable(),
  description: z.string(),
  agent: z.string(),
  state: SubagentState,
  /** Model calls so far. */
  turns: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  /** Input (cache reads and writes included) and output tokens so far. */
  tokens: z.number().int().nonnegative(),
  /** Of those, the output tokens. */
  outputTokens: z.number().int().nonnegative().default(0),
  /** Dollars so far, as the replies' usage says. */
  cost: z.number().nonnegative(),
  startedAt: z.number().nullable(),
  /** Milliseconds it ran (so far, while it runs). */
  elapsedMs: z.number().nonnegative(),
  /** A question of its (an approval) waits for the user's answer. */
  asking: z.boolean().default(false),
  /** Why it failed, timed out, stopped or was refused, as a sentence. */
  reason: z.string().optional(),
});
export type SubagentView = z.infer<typeof SubagentView>;

/** What a task call's result carries in its `details`: the rows, for the card once the call has ended. */
export const TaskDetails = z.object({ subagents: z.array(SubagentView) });
export type TaskDetails = z.infer<typeof TaskDetails>;

/**
 * What a task call's children spent, from its result's details: counted in the parent conversation's tokens
 * and cost. Null for any other message (or details that do not parse).
 */
export function taskSpend(message: { role: string; toolName?: string; details?: unknown }): { input: number; output: number; cost: number } | null {
  if (message.role !== 'toolResult' || message.toolName !== 'task') return null;
  const parsed = TaskDetails.safeParse(message.details);
  if (!parsed.success) return null;
  let input = 0;
  let output = 0;
  let cost = 0;
  for (const child of parsed.data.subagents) {
    output += child.outputTokens;
    input += child.tokens - child.outputTokens;
    cost += child.cost;
  }
  return { input, output, cost };
}

/** A child agent's conversation as its read-only view shows it: every entry, its branches included, oldest first. */
export const SubagentTranscript = z.object({
  session: SessionSummary,
  entries: z.array(Entry),
  leafId: z.string().nullable(),
});
export type SubagentTranscript = z.infer<typeof SubagentTranscript>;
