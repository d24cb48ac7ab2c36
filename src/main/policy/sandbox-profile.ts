import type { PolicyMode } from '../../shared/agent/index.ts';
import type { ShellSandbox } from '../../shared/tools/index.ts';

export interface SandboxProfileInput {
  /** The conversation's policy mode. */
  mode: PolicyMode;
  /** Whether commands in write mode may use the network: the conversation's own choice, else the global switch. */
  network: boolean;
  /** Whether a sandbox can start here (false: commands run with the user's full rights, after approval). */
  available: boolean;
  /** The user answered "run unsandboxed" to this very call. */
  unsandboxed?: boolean;
  /** Protected paths the user approved changing in this call. */
  writable?: readonly string[];
  /** The user approved the call as one that runs in the sandbox: no lack of one turns it unsandboxed. */
  sandboxOnly?: boolean;
}

const MAX_WRITABLE = 16;

/**
 * How one shell call is confined: the sandbox follows the mode; network is off in read mode, the setting in
 * write mode, on in yolo mode. Unsandboxed when the user said so for this call or when no sandbox can start.
 */
export function sandboxProfile(input: SandboxProfileInput): ShellSandbox {
  const network = input.mode === 'read' ? false : input.mode === 'yolo' ? true : input.network;
  const writable = [...new Set(input.writable ?? [])].slice(0, MAX_WRITABLE);
  return {
    mode: input.mode,
    network,
    ...(input.unsandboxed === true || (!input.available && input.sandboxOnly !== true) ? { unsandboxed: true } : {}),
    ...(writable.length > 0 && input.mode !== 'read' ? { writable } : {}),
  };
}
