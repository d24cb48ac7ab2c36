import { resolve, sep } from 'node:path';

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
