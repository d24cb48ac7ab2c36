import { resolve, sep } from 'node:path';

/**
 * Whether `target` lies inside `root` (or is the root), judged on the text of the paths alone: both are
 * normalised lexically and compared with a separator-terminated prefix, so `/ws2` is not inside `/ws`. A
 * relative `target` is read from `root`. `caseless` compares as file systems that ignore case do (macOS,
 * Windows). Never touches the file system; symlinks are not followed: give real paths where links matter.
 */
export function isInside(root: string, target: string, options: { caseless?: boolean } = {}): boolean {
  const fold = (path: string) => (options.caseless ? path.toLowerCase() : path);
  const resolvedRoot = resolve(root);
  const r = fold(resolvedRoot);
  const t = fold(resolve(resolvedRoot, target));
  if (t === r) return true;
  return t.startsWith(r.endsWith(sep) ? r : r + sep);
}
