import { z } from 'zod';

/**
 * What main tells a plugin's tool about the call besides its arguments: the conversation and its workspace
 * folder (the tool's root; the only source of it) and the folders no tool may touch whatever the path
 * (Amber's own data folder: keys, database, plugin data).
 */
export const ToolCallContext = z.object({
  sessionId: z.string().min(1).max(128),
  workspace: z.string().min(1).max(4096),
  denied: z.array(z.string().min(1).max(4096)).max(16),
});
export type ToolCallContext = z.infer<typeof ToolCallContext>;
