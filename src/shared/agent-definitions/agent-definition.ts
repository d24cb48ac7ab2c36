import { z } from 'zod';

/** Where a definition came from; a workspace one overrides a user one, which overrides a built-in of the same name. */
export const AgentSource = z.enum(['builtin', 'user', 'workspace']);
export type AgentSource = z.infer<typeof AgentSource>;

/** An agent's name: what the task tool and `/agents` call it by. */
export const AgentName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit');

/** A tool name as the model sees it. */
export const AgentToolName = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a tool name (letters, digits, _ . -)');

/**
 * A kind of child agent the task tool can start: which tools it may use, with which model, how many turns,
 * whether it may write, and the prompt added to its system prompt.
 */
export const AgentDefinition = z.object({
  name: AgentName,
  description: z.string().min(1).max(1000),
  /** The tools it may use; absent: every tool the parent may use. */
  tools: z.array(AgentToolName).max(200).optional(),
  /** Its model; absent: the parent's. */
  model: z.object({ provider: z.string().min(1).max(200), id: z.string().min(1).max(200) }).optional(),
  /** Its iteration cap; absent: the task tool's default. */
  maxIterations: z.number().int().min(1).max(1000).optional(),
  /** Whether it may change files or run commands that write; false runs it read-only. */
  mayWrite: z.boolean(),
  /** The Markdown body: what is added to the child's system prompt. */
  prompt: z.string().max(100_000),
  source: AgentSource,
  /** The file it was read from (absent for a built-in). */
  path: z.string().optional(),
});
export type AgentDefinition = z.infer<typeof AgentDefinition>;
