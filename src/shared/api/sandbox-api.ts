import { z } from 'zod';

const SessionId = z.string().min(1).max(128);

/**
 * The shell sandbox as Settings and the window's notice show it: whether commands run inside an OS sandbox
 * here, and whether commands in write mode may use the network (the global switch, and the conversation's
 * own choice, which wins). Read mode never has network; yolo mode always has.
 */
export const SandboxView = z.object({
  /** Whether shell commands run in an OS sandbox; false: every command that is not read-only asks first. */
  available: z.boolean(),
  /** The sandbox in use (bubblewrap on Linux, Seatbelt on macOS); null where there is none. */
  kind: z.enum(['bubblewrap', 'seatbelt']).nullable(),
  /** Why there is none, and what the user can do about it, as sentences; null when there is one. */
  reason: z.string().nullable(),
  fix: z.string().nullable(),
  /** The global switch: commands in write mode may use the network. */
  network: z.boolean(),
  /** The conversation asked about (null: none). */
  sessionId: z.string().nullable(),
  /** Its own choice (/sandbox network on|off), which wins over the switch; null when it follows the switch. */
  sessionNetwork: z.boolean().nullable(),
});
export type SandboxView = z.infer<typeof SandboxView>;

export const SandboxGet = z.object({ sessionId: SessionId.nullable().optional() }).strict();
export type SandboxGet = z.infer<typeof SandboxGet>;

/** Turns the global network switch of write mode on or off. */
export const SandboxSetNetwork = z.object({ network: z.boolean(), sessionId: SessionId.nullable().optional() }).strict();
export type SandboxSetNetwork = z.infer<typeof SandboxSetNetwork>;
