import { resolve } from 'node:path';
import type { ShellSandbox } from '../../../shared/tools/index.ts';

/**
 * What one shell call may do, as the sandbox builders take it (the same for every command): the mode and
 * network main's policy chose, the workspace `root` (a real path), the user's `home` (whose secrets are
 * hidden), the `denied` folders (Amber's data folder, hidden like a secret) and the protected paths of the
 * workspace the user allowed this call to change (`writable`).
 */
export interface SandboxProfile {
  mode: ShellSandbox['mode'];
  network: boolean;
  root: string;
  home: string;
  denied: readonly string[];
  writable: readonly string[];
}

/**
 * The profile for a call from what main sent. No sandbox field (an older main, a malformed one the host
 * dropped, a call from outside a conversation) means the strictest: read, no network, never unconfined.
 * The writable paths are normalised (`/w/./a/` is `/w/a`), so they compare with found paths as text.
 */
export function sandboxProfile(sandbox: ShellSandbox | undefined, where: { root: string; home: string; denied?: readonly string[] }): SandboxProfile {
  return {
    mode: sandbox?.mode ?? 'read',
    network: sandbox?.network ?? false,
    root: where.root,
    home: where.home,
    denied: where.denied ?? [],
    writable: (sandbox?.writable ?? []).filter((w) => w.startsWith('/')).map((w) => resolve(w)),
  };
}
