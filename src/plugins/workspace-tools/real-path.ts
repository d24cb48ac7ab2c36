import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

const MAX_LINKS = 40;
const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as { code?: string }).code ?? '');

/**
 * The real location of an absolute path, following every symbolic link on it like the kernel would, even
 * when its tail does not exist yet: the deepest existing ancestor's real path plus the missing names. A
 * dangling link is followed to where it points, so creating through it is judged by its target. Loops
 * throw an error with code ELOOP.
 */
export async function resolveRealPath(path: string): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await realpath(path), exists: true };
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  let links = 0;
  const walk = async (p: string): Promise<string> => {
    try {
      return await realpath(p);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const parent = dirname(p);
    if (parent === p) return p;
    const info = await lstat(p).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (info?.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw Object.assign(new Error(`Too many symbolic links on ${path}.`), { code: 'ELOOP' });
      const target = await readlink(p);
      return walk(resolve(await walk(parent), target));
    }
    return join(await walk(parent), basename(p));
  };
  return { real: await walk(path), exists: false };
}
