import { z } from 'zod';

/**
 * A tool the agent can be offered (`tools.list`), with where it comes from: a plugin, or Amber itself (the task,
 * todo and skill tools). A tool of a plugin that is off or failed is listed too, unavailable, with the reason.
 */
export const OfferedTool = z.object({
  name: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  /** It runs command lines: a scheduled task lists it with command prefixes (bash:npm test). */
  shell: z.boolean(),
  /** The plugin that contributes it; null for Amber's own tools. */
  plugin: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Whether a run can be offered it now. */
  available: z.boolean(),
  /** Why it is not available, as a sentence (its plugin is off, or failed); null when it is. */
  reason: z.string().nullable(),
});
export type OfferedTool = z.infer<typeof OfferedTool>;

export const OfferedToolList = z.object({ tools: z.array(OfferedTool) });
export type OfferedToolList = z.infer<typeof OfferedToolList>;
