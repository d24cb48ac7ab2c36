import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { looksBinary } from '../workspace-tools/index.ts';

/** Files over this size are listed but their text is not indexed. */
export const MAX_INDEXED_BYTES = 1024 * 1024;

/** A file as read for the index or a result: its bytes, or null when it is binary or too big. */
export interface ReadFile {
  size: number;
  mtimeMs: number;
  bytes: Buffer | null;
}

/**
 * Reads a regular file inside the root without following a link on its last name, and only when the folder
 * it sits in is still where the walk found it (a real path): never a file outside the workspace. Undefined when
 * it is not a regular file (gone, a link, a folder) or cannot be read. Runs in the index's thread and in the
 * symbol worker alike.
 */
export async function readIndexable(path: string): Promise<ReadFile | undefined> {
  let handle;
  try {
    if ((await realpath(dirname(path))) !== dirname(path)) return undefined;
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (info.size > MAX_INDEXED_BYTES) return { size: info.size, mtimeMs: info.mtimeMs, bytes: null };
    const bytes = await handle.readFile();
    return { size: info.size, mtimeMs: info.mtimeMs, bytes: looksBinary(bytes) ? null : bytes };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
