// How the workspace tools stay inside the workspace. Every path a tool is given goes through these rules,
// in this order, before the tool opens anything:
//  1. Lexical: the path must not be empty, hold a NUL, climb out with `..`, or be absolute outside the root;
//     containment is tested on the root plus a separator, so `/ws2` is not inside `/ws` (confinePath).
//  2. Denied folders: a path inside one of the context's `denied` folders (Amber's own data folder) is
//     refused, whatever the mode (deniedFolderOf).
//  3. Real: the real path of the target (for a target that does not exist yet, its deepest existing
//     ancestor plus the rest) must be inside the real path of the root, and not inside the real path of a
//     denied folder. So a symbolic link anywhere on the way that leaves the workspace, or leads into the
//     data folder, is refused; links that stay inside are followed (resolveWorkspaceTarget).
//  4. Opening: files are opened at that real path with O_NOFOLLOW, and only regular files: FIFOs, sockets
//     and devices are refused before opening and again on the open handle. Right after opening, the
//     parent's real path must still be the checked one and the handle the file found there, which narrows
//     the race between the check and the open (openRegularFile). Folders that write creates are made one
//     at a time and checked the same way; one made in the wrong place is taken back (createFolders).
//  5. Walks (find, grep over a folder) and ls never follow a symbolic link: a link is listed as a name
//     (ls marks it with "@"), never descended into or read through; denied folders are skipped silently;
//     grep reads regular files only.
// Hard links cannot be told apart from ordinary files by path, so they are outside these rules.
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Where the workspace is: the configured root, else `AMBER_WORKSPACE`, else the working directory. */
export function resolveWorkspaceRoot(options: { configured?: string | null; env?: Record<string, string | undefined>; cwd?: string } = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const chosen = [options.configured, env.AMBER_WORKSPACE].find((p): p is string => typeof p === 'string' && p.trim() !== '');
  return resolve(cwd, chosen ?? '.');
}

export type ConfinedPath = { ok: true; path: string; relative: string } | { ok: false; reason: string };

/** True when `path` is `folder` or inside it; both absolute and normalized. Purely lexical. */
export function isInsideFolder(folder: string, path: string): boolean {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  return path === folder || path.startsWith(prefix);
}

/**
 * Resolves a path the model gave against the workspace root, purely lexically and before any I/O: no
 * symlink is followed and nothing is touched (rule 1 above). The real-path rules come after it, in
 * resolveWorkspaceTarget.
 */
export function confinePath(root: string, input: unknown): ConfinedPath {
  if (typeof input !== 'string' || input.trim() === '')
    return { ok: false, reason: 'The path is empty; give a path inside the workspace, or "." for its root.' };
  if (input.includes('\0')) return { ok: false, reason: 'The path contains a NUL character.' };
  const base = resolve(root);
  const full = resolve(base, input);
  if (!isInsideFolder(base, full)) {
    const why = isAbsolute(input) ? 'is an absolute path outside the workspace' : 'leaves the workspace';
    return { ok: false, reason: `The path "${input}" ${why} (${base}). Use a path inside it.` };
  }
  return { ok: true, path: full, relative: relative(base, full) || '.' };
}
