import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { looksBinary } from '../workspace-tools/index.ts';

/** Files over this size are not read (the lexical index leaves their text out too). */
const MAX_BYTES = 1024 * 1024;

/**
 * A workspace file's text, read the way the index reads files: its folder must be where the path says (no
 * link on the way leaves the workspace), its last name is opened without following a link, and it must be a
 * regular text file of at most 1 MB. `root` is the workspace's real path, `rel` a path the index holds.
 * Null when it is gone, not a regular file, binary, too big or not safe to read.
 */
export async function readWorkspaceText(root: string, rel: string): Promise<{ size: number; mtimeMs: number; text: string } | null> {
  const path = join(root, rel);
  if (!path.startsWith(`${root}${sep}`)) return null;
  let handle;
  try {
    if ((await realpath(dirname(path))) !== dirname(path)) return null;
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_BYTES) return null;
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) return null;
    return { size: info.size, mtimeMs: info.mtimeMs, text: bytes.toString('utf8') };
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}
