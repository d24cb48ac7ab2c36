import { resolve } from 'node:path';
import { isInsideFolder } from './workspace-path.ts';

/**
 * The denied folder that holds `path` (or is it), if any; purely lexical, so call it with both the path as
 * given and its real path, against both the folders as given and their real paths.
 */
export function deniedFolderOf(path: string, denied: readonly string[] | undefined): string | undefined {
  if (!denied) return undefined;
  const full = resolve(path);
  return denied.find((folder) => isInsideFolder(resolve(folder), full));
}
