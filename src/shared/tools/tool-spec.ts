import { z } from 'zod';

/** A tool as the model and the dispatcher see it. `parameters` is a JSON Schema object. */
export const ToolSpec = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name is 1-64 letters, digits, _ or -'),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  /** Read-only tools run in every policy mode; the others need write or yolo mode, or an approval. */
  readOnly: z.boolean(),
  /**
   * A shell tool: its `command` argument is a command line the policy classifies before it runs (and
   * "always" answers are kept per command prefix, never for the tool as a whole).
   */
  shell: z.boolean().optional(),
});
export type ToolSpec = z.infer<typeof ToolSpec>;

/** What a tool returns; `isError` results are shown to the model as errors it can read and act on. */
export const ToolOutput = z.object({
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  isError: z.boolean().default(false),
  details: z.unknown().optional(),
});
export type ToolOutput = z.infer<typeof ToolOutput>;
