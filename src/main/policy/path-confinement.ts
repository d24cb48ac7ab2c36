import { isAbsolute, resolve, sep } from 'node:path';

export type ConfinedPath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Whether `target` lies inside `root` (or is the root), judged on the text of the paths alone: both are
 * normalised lexically and compared with a separator-terminated prefix, so `/ws2` is not inside `/ws`.
 * Never touches the file system; symlinks are not followed.
 */
export function isInside(root: string, target: string): boolean {
  const r = resolve(root);
  const t = resolve(r, target);
  if (t === r) return true;
  const prefix = r.endsWith(sep) ? r : r + sep;
  return t.startsWith(prefix);
}

/**
 * Resolves a path a tool was given against the workspace root, before any I/O. Empty paths, NUL bytes,
 * `..` escapes and absolute paths outside the root are refused with a sentence the model can act on.
 */
export function confine(root: string, input: string): ConfinedPath {
  if (!isAbsolute(root)) return { ok: false, reason: `The workspace root ${root} is not an absolute path.` };
  if (input.trim() === '') return { ok: false, reason: 'The path is empty; give a path inside the workspace.' };
  if (input.includes('\0')) return { ok: false, reason: 'The path contains a NUL byte.' };
  const path = resolve(root, input);
  if (!isInside(root, path)) return { ok: false, reason: `The path ${input} is outside the workspace ${resolve(root)}.` };
  return { ok: true, path };
}
