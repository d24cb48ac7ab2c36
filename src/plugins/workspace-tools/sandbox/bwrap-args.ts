import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInsideFolder } from '../workspace-path.ts';
import type { HiddenPaths } from './hidden-paths.ts';
import type { SandboxProfile } from './sandbox-profile.ts';

/** What exists on disk that the profile needs: the paths to hide and the workspace's protected paths. */
export interface BwrapFindings {
  hidden: HiddenPaths;
  /** Protected paths that exist in the workspace (see findProtectedEntries). */
  protectedPaths: readonly string[];
}

/**
 * The bubblewrap arguments (before `--` and the command) that confine one call, the same for every command:
 * - every mode: the whole file system read-only, a fresh /dev and /proc (this call's processes only), a
 *   private empty /tmp, secrets and the denied folders covered by empty read-only ones, no capabilities,
 *   new user/pid/ipc/uts/cgroup namespaces, a session of its own (no typing into the caller's terminal),
 *   and everything killed when bwrap or its parent dies;
 * - read: the workspace read-only too; no network;
 * - write/yolo: the workspace writable but its protected paths read-only (save those in `writable`); network
 *   only when `network` (a namespace of its own otherwise: only its own loopback).
 * Order matters: a later mount covers an earlier one, so the workspace comes after /tmp (it may lie there),
 * protected paths after the workspace, and secrets last (the workspace may hold them, or be the home).
 */
export function bwrapArgs(profile: SandboxProfile, found: BwrapFindings): string[] {
  const { root } = profile;
  const writes = profile.mode !== 'read';
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  args.push(writes ? '--bind' : '--ro-bind', root, root);
  if (writes) args.push(...protectedMounts(profile, found.protectedPaths));
  // A path inside a folder that is hidden already needs nothing more (and could not be mounted in a read-only one).
  const dirs = outermost(found.hidden.dirs);
  for (const dir of dirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const file of found.hidden.files) if (!dirs.some((d) => isInsideFolder(d, file))) args.push('--ro-bind', '/dev/null', file);
  args.push('--unshare-user-try', '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try');
  if (!(writes && profile.network)) args.push('--unshare-net');
  // Run as root, bwrap would leave the command every capability inside its namespaces (enough to unmount
  // what hides a secret): none are kept.
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', root);
  return args;
}

/**
 * Read-only binds over the protected paths, except those the user allowed this call (`writable`, inside
 * the workspace only): an allowed path that is a protected path, or holds one, leaves it writable; one
 * inside a protected folder is bound writable again over the read-only folder, by its nearest part that
 * exists (the folder itself when nothing inside does: it then stays writable whole, for this call).
 * Binds are `-try`: a path removed since it was found is skipped, not an error.
 */
function protectedMounts(profile: SandboxProfile, protectedPaths: readonly string[]): string[] {
  const writable = profile.writable.filter((w) => isInsideFolder(profile.root, w));
  const readOnly: string[] = [];
  const again: string[] = [];
  for (const path of protectedPaths) {
    if (writable.some((w) => isInsideFolder(w, path))) continue;
    const inside = writable.filter((w) => isInsideFolder(path, w));
    const reopened = inside.map((w) => nearestExisting(w, path));
    if (reopened.includes(path)) continue;
    readOnly.push(path);
    again.push(...reopened);
  }
  return [...readOnly.flatMap((p) => ['--ro-bind-try', p, p]), ...again.flatMap((p) => ['--bind-try', p, p])];
}

/** `path` or its nearest existing ancestor, stopping at `top`. */
function nearestExisting(path: string, top: string): string {
  let p = path;
  while (p !== top && !existsSync(p)) p = dirname(p);
  return p;
}

/** The paths not inside another path of the list. */
function outermost(paths: readonly string[]): string[] {
  return paths.filter((p) => !paths.some((q) => q !== p && isInsideFolder(q, p)));
}
