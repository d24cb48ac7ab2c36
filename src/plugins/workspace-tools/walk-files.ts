import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AbortSignalLike } from '../../shared/providers/index.ts';

/** Folders find and grep never descend into: they are large and rarely what the model is looking for. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn']);

export interface WalkEntry {
  path: string;
  isDirectory: boolean;
}

/**
 * Walks a folder depth-first in name order. Symbolic links are listed but never followed, so a walk stays
 * inside the tree it started in. Unreadable folders are skipped. Stops when the signal aborts.
 */
export async function* walkFiles(dir: string, signal?: AbortSignalLike): AsyncGenerator<WalkEntry> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (signal?.aborted) return;
    const path = join(dir, entry.name);
    const isDirectory = entry.isDirectory();
    yield { path, isDirectory };
    if (isDirectory && !SKIPPED_DIRS.has(entry.name)) yield* walkFiles(path, signal);
  }
}

/** True when the first bytes hold a NUL: treated as binary, not shown as text. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
