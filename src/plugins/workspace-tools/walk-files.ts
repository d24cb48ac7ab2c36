import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { AbortSignalLike } from '../../shared/providers/index.ts';

/** Folders find and grep never descend into: they are large and rarely what the model is looking for. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn']);

export interface WalkEntry {
  path: string;
  isDirectory: boolean;
  /** A regular file (not a link, FIFO, socket or device): the only kind grep reads. */
  isFile: boolean;
  isLink: boolean;
}

export interface WalkOptions {
  signal?: AbortSignalLike;
  /** Paths (files or folders) to leave out silently, with everything under them. */
  skip?: (path: string) => boolean;
}

/**
 * Walks a folder depth-first in name order. `dir` must be a real path (no symbolic links on it). Symbolic
 * links are listed but never followed, and before reading a folder its real path must still be its path,
 * so a folder swapped for a link during the walk is not entered: the walk stays inside the tree it started
 * in. Unreadable folders are skipped. Stops when the signal aborts.
 */
export async function* walkFiles(dir: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  let entries;
  try {
    if ((await realpath(dir)) !== dir) return;
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (options.signal?.aborted) return;
    const path = join(dir, entry.name);
    if (options.skip?.(path)) continue;
    const isDirectory = entry.isDirectory();
    yield { path, isDirectory, isFile: entry.isFile(), isLink: entry.isSymbolicLink() };
    if (isDirectory && !SKIPPED_DIRS.has(entry.name)) yield* walkFiles(path, options);
  }
}

/** True when the first bytes hold a NUL: treated as binary, not shown as text. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
