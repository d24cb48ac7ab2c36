import { z } from 'zod';

/** The task tool's name, as the model calls it. */
export const TASK_TOOL_NAME = 'task';

/** One piece of work handed to a child agent. */
export const TaskItem = z.object({
  /** A few words shown in the window (the card's row, the approval questions, the child's title). */
  description: z.string().trim().min(1).max(200),
  /** Everything the child needs to know: it sees nothing of the parent's conversation. */
  prompt: z.string().trim().min(1).max(100_000),
  /** The agent definition to run (`/agents` lists them); absent: general. */
  agent: z.string().min(1).max(64).optional(),
});
export type TaskItem = z.infer<typeof TaskItem>;

/** The task tool's arguments, checked again in main whatever the model sent. */
export const TaskArgs = z.object({
  tasks: z.array(TaskItem).min(1).max(64),
  /** `serial`: one child after another, in order; `parallel`: at once (up to the limit). Default serial. */
  mode: z.enum(['serial', 'parallel']).default('serial'),
});
export type TaskArgs = z.infer<typeof TaskArgs>;
