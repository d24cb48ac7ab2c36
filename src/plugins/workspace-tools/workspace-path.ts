import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Where the workspace is: the configured root, else `AMBER_WORKSPACE`, else the working directory. */
export function resolveWorkspaceRoot(options: { configured?: string | null; env?: Record<string, string | undefined>; cwd?: string } = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const chosen = [options.configured, env.AMBER_WORKSPACE].find((p): p is string => typeof p === 'string' && p.trim() !== '');
  return resolve(cwd, chosen ?? '.');
}

export type ConfinedPath = { ok: true; path: string; relative: string } | { ok: false; reason: string };

/**
 * Resolves a path the model gave against the workspace root, purely lexically and before any I/O: no
 * symlink is followed and nothing is touched. Empty paths, `..` escapes and absolute paths outside the
 * root are rejected. Containment is tested on the root plus a separator, so `/ws2` is not inside `/ws`.
 */
export function confinePath(root: string, input: unknown): ConfinedPath {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, reason: 'The path is empty; give a path inside the workspace, or "." for its root.' };
  if (input.includes('\0')) return { ok: false, reason: 'The path contains a NUL character.' };
  const base = resolve(root);
  const full = resolve(base, input);
  const prefix = base.endsWith(sep) ? base : base + sep;
  if (full !== base && !full.startsWith(prefix)) {
    const why = isAbsolute(input) ? 'is an absolute path outside the workspace' : 'leaves the workspace';
    return { ok: false, reason: `The path "${input}" ${why} (${base}). Use a path inside it.` };
  }
  return { ok: true, path: full, relative: relative(base, full) || '.' };
}
