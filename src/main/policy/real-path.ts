import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

const MAX_LINKS = 40;

/**
 * Where a write to `path` (absolute) would land: symlinks in the part that exists are followed, and so is
 * a dangling symlink (writing through it creates its target). The part that does not exist yet is kept as
 * written. Never throws; a path it cannot read is returned as given.
 */
export function realPath(path: string): string {
  let head = resolve(path);
  const tail: string[] = [];
  for (let hops = 0; hops < MAX_LINKS * 4; hops++) {
    try {
      return join(realpathSync.native(head), ...tail);
    } catch {
      const link = readLink(head);
      if (link !== null) {
        head = isAbsolute(link) ? link : resolve(dirname(head), link);
        continue;
      }
      const parent = dirname(head);
      if (parent === head) return resolve(path);
      tail.unshift(basename(head));
      head = parent;
    }
  }
  return resolve(path);
}

function readLink(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null;
  }
}
