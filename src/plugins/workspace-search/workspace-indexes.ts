import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_FILE, IndexRegistry } from './index-registry.ts';
import { SearchIndexService } from './search-index-service.ts';

/** The index file of a workspace: named by a hash of its real path, so a moved folder starts a new cache. */
export function indexFileName(realRoot: string): string {
  return `${createHash('sha256').update(realRoot).digest('hex').slice(0, 24)}.sqlite`;
}

/** An index not used for this long is removed when the plugin starts (30 days). */
export const UNUSED_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/** What Settings shows of a workspace's index. */
export interface IndexView {
  /** The index file's name, which names the workspace in a Rebuild action. */
  file: string;
  root: string;
  /** `stopped`: its first build was stopped when another workspace's began, and goes on at the next search there. */
  state: 'building' | 'ready' | 'idle' | 'stopped';
  /** Files indexed so far and found, while building. */
  progress: { done: number; total: number } | null;
  /** The index's size on disk (the database and its write-ahead log). */
  bytes: number;
  /** When the index last changed on disk; null when there is no index file (removed, or not built yet). */
  updatedAt: number | null;
  usedAt: number;
}

export interface WorkspaceIndexesOptions {
  /** Follow edits with a file-system watcher (default true). */
  watch?: boolean;
  /** Epoch milliseconds. */
  now?: () => number;
  /** An index unused for longer is removed when the indexes are opened (default UNUSED_AFTER_MS). */
  unusedAfterMs?: number;
  /** Told the file of an index whose build was stopped because another workspace's began. Must not throw. */
  onStopped?: (file: string) => void;
}

const SUFFIXES = ['', '-wal', '-shm'];

/**
 * One SearchIndexService per workspace the plugin has been asked about, opened on first use in `folder`
 * (the plugin's data folder); none when the plugin was given no folder to keep indexes in. A registry beside
 * them names each index's workspace and last use: indexes unused for a while are removed when this opens.
 */
export class WorkspaceIndexes {
  readonly #folder: string | null;
  readonly #indexes = new Map<string, SearchIndexService>();
  /** Files of the indexes whose first build was stopped, until they are opened again. */
  readonly #stopped = new Set<string>();
  readonly #options: WorkspaceIndexesOptions;
  readonly #registry: IndexRegistry | null;

  constructor(folder: string | null, options: WorkspaceIndexesOptions = {}) {
    this.#folder = folder;
    this.#options = options;
    this.#registry = folder === null ? null : new IndexRegistry(folder);
    this.#removeUnused();
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  get(realRoot: string, isDenied: (path: string) => boolean): SearchIndexService | null {
    if (this.#folder === null) return null;
    const file = indexFileName(realRoot);
    let index = this.#indexes.get(file);
    if (!index) {
      // One build at a time: one still going in another workspace stops (the conversation moved on), and goes on
      // from the files it wrote at the next search there, which only reads what it had not.
      for (const [other, open] of this.#indexes) {
        if (!open.building) continue;
        open.dispose();
        this.#indexes.delete(other);
        this.#stopped.add(other);
        this.#options.onStopped?.(other);
      }
      mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
      this.#stopped.delete(file);
      index = new SearchIndexService({ root: realRoot, file: join(this.#folder, file), isDenied, watch: this.#options.watch ?? true });
      this.#indexes.set(file, index);
    }
    this.#registry?.touch(file, realRoot, this.#now());
    return index;
  }

  /** Every workspace with an index, the last used first. */
  views(): IndexView[] {
    if (this.#folder === null || this.#registry === null) return [];
    return this.#registry.list().map(({ file, root, usedAt }) => {
      const open = this.#indexes.get(file);
      let bytes = 0;
      let updatedAt: number | null = null;
      for (const suffix of SUFFIXES.slice(0, 2)) {
        try {
          const info = statSync(join(this.#folder!, file + suffix));
          bytes += info.size;
          updatedAt = Math.max(updatedAt ?? 0, info.mtimeMs);
        } catch {
          // No such file: nothing to count.
        }
      }
      const state = open ? (open.building ? 'building' : 'ready') : this.#stopped.has(file) ? 'stopped' : 'idle';
      return { file, root, state, progress: state === 'building' ? { ...open!.progress } : null, bytes, updatedAt, usedAt };
    });
  }

  /** True while some index is first being built. */
  get building(): boolean {
    return [...this.#indexes.values()].some((index) => index.building);
  }

  /**
   * Deletes a workspace's index and builds it again: at once when it is open here, else at the next search in
   * that workspace. False when `file` names no index the registry knows.
   */
  rebuild(file: string): boolean {
    if (this.#folder === null || !INDEX_FILE.test(file) || !this.#registry?.get(file)) return false;
    const open = this.#indexes.get(file);
    open?.dispose();
    this.#indexes.delete(file);
    this.#stopped.delete(file);
    this.#removeFiles(file);
    if (open) this.get(open.root, open.isDenied);
    return true;
  }

  #removeFiles(file: string): void {
    for (const suffix of SUFFIXES) rmSync(join(this.#folder!, file + suffix), { force: true });
  }

  /** Removes the indexes unused for longer than unusedAfterMs, and index files no registry entry names that are as old. */
  #removeUnused(): void {
    if (this.#folder === null || this.#registry === null) return;
    const before = this.#now() - (this.#options.unusedAfterMs ?? UNUSED_AFTER_MS);
    for (const entry of this.#registry.list()) {
      if (entry.usedAt >= before) continue;
      this.#removeFiles(entry.file);
      this.#registry.forget(entry.file);
    }
    let names: string[] = [];
    try {
      names = readdirSync(this.#folder);
    } catch {
      return;
    }
    for (const name of names) {
      if (!INDEX_FILE.test(name) || this.#registry.get(name)) continue;
      try {
        if (statSync(join(this.#folder, name)).mtimeMs < before) this.#removeFiles(name);
      } catch {
        // Gone meanwhile.
      }
    }
  }

  dispose(): void {
    for (const index of this.#indexes.values()) index.dispose();
    this.#indexes.clear();
  }
}
