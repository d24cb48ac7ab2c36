import { z } from 'zod';

const AbsolutePath = z.string().min(1).max(4096);

/**
 * How a shell tool's command must be confined, decided by main's policy for this one call and built into
 * an OS sandbox by the plugin that runs the shell (the only place that builds one):
 * - `read`: the whole file system read-only, secrets and the denied folders hidden, no network, private /tmp;
 * - `write`: as read, but the workspace writable except its protected paths; network only when `network`;
 * - `yolo`: as write (main sends `network: true`).
 * `unsandboxed` is set only after the user answered "run unsandboxed" to this very call (never remembered),
 * or where no sandbox can start and the user approved the line. `writable` names protected paths the user
 * approved changing in this call: they stay writable for it alone.
 */
export const ShellSandbox = z.object({
  mode: z.enum(['read', 'write', 'yolo']),
  network: z.boolean(),
  unsandboxed: z.boolean().optional(),
  writable: z.array(AbsolutePath).max(16).optional(),
});
export type ShellSandbox = z.infer<typeof ShellSandbox>;

/**
 * What main tells a plugin's tool about the call besides its arguments: the conversation and its workspace
 * folder (the tool's root; the only source of it), the folders no tool may touch whatever the path
 * (Amber's own data folder: keys, database, plugin data), and for a shell tool how to sandbox it.
 */
export const ToolCallContext = z.object({
  sessionId: z.string().min(1).max(128),
  workspace: AbsolutePath,
  denied: z.array(AbsolutePath).max(16),
  sandbox: ShellSandbox.optional(),
  /** True when a child agent (the task tool's sub-agent) makes the call: a tool that must act only for the user's own conversation refuses it. */
  subagent: z.boolean().optional(),
});
export type ToolCallContext = z.infer<typeof ToolCallContext>;
