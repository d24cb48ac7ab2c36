import { lstat, mkdir, realpath, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolFailure } from './tool-failure.ts';

/**
 * Creates the missing folders of a real path one at a time, below its deepest existing ancestor (already
 * checked to be inside the workspace); each new folder's real path must be where it was asked for, so a
 * link slipped in on the way is caught before anything is written through it, and a folder this call made
 * in the wrong place is taken back (only if still empty). `beforeMake` runs before each mkdir (a seam for
 * tests that swap the path there).
 */
export async function createFolders(dir: string, name: string, options: { beforeMake?: (folder: string) => Promise<void> } = {}): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; !(await lstat(at).catch(() => undefined)); at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    await options.beforeMake?.(folder);
    const made = await mkdir(folder).then(
      () => true,
      (error: unknown) => {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
        return false;
      },
    );
    if ((await realpath(folder)) !== folder) {
      if (made) await rmdir(folder).catch(() => undefined);
      throw new ToolFailure(`A folder on the way to ${name} changed while it was being created; try again.`);
    }
  }
}
