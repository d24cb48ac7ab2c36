import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_PATHS, type SecretPath } from '../../../shared/tools/index.ts';

export interface HiddenPaths {
  /** Real paths of folders to cover with an empty one. */
  dirs: string[];
  /** Real paths of files (sockets included) to cover with an empty file. */
  files: string[];
}

/**
 * The secrets (SECRET_PATHS, `~/` read as `home`) and the `denied` folders that exist, by real path (a
 * mount lands on a link's target, so the target is what is hidden), folders apart from files, each once.
 * A path that does not exist, or whose link leads nowhere, is left out: there is nothing to hide.
 */
export function hiddenPaths(home: string, denied: readonly string[], secrets: readonly SecretPath[] = SECRET_PATHS): HiddenPaths {
  const dirs = new Set<string>();
  const files = new Set<string>();
  const candidates = [...secrets.map((s) => (s.path.startsWith('~/') ? join(home, s.path.slice(2)) : s.path)), ...denied];
  for (const path of candidates) {
    let real: string;
    let isDir: boolean;
    try {
      real = realpathSync(path);
      isDir = statSync(real).isDirectory();
    } catch {
      continue;
    }
    (isDir ? dirs : files).add(real);
  }
  return { dirs: [...dirs], files: [...files] };
}
