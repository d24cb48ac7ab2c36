import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** An index file's name: a hash of its workspace's real path (see indexFileName). Nothing else is ever deleted. */
export const INDEX_FILE = /^[0-9a-f]{24}\.sqlite$/;

const RegistryFile = z.object({
  version: z.literal(1),
  workspaces: z.record(z.string().regex(INDEX_FILE), z.object({ root: z.string().min(1).max(4096), usedAt: z.number().finite().nonnegative() })),
});
type RegistryFile = z.infer<typeof RegistryFile>;

/** A workspace the plugin keeps an index for: the index file's name, the workspace's real path, when a search last used it. */
export interface RegisteredIndex {
  file: string;
  root: string;
  usedAt: number;
}

/**
 * Which workspace each index file belongs to and when it was last used, in `workspaces.json` beside the
 * indexes: what the Settings row lists, and what says an index is unused and may go. A file that cannot be
 * read or does not match the schema counts as empty (the indexes are a cache).
 */
export class IndexRegistry {
  readonly #path: string;
  #data: RegistryFile;

  constructor(folder: string) {
    this.#path = join(folder, 'workspaces.json');
    this.#data = IndexRegistry.#read(this.#path);
  }

  static #read(path: string): RegistryFile {
    try {
      const parsed = RegistryFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Missing or not JSON: an empty registry.
    }
    return { version: 1, workspaces: {} };
  }

  list(): RegisteredIndex[] {
    return Object.entries(this.#data.workspaces)
      .map(([file, entry]) => ({ file, ...entry }))
      .sort((a, b) => b.usedAt - a.usedAt);
  }

  get(file: string): RegisteredIndex | undefined {
    const entry = this.#data.workspaces[file];
    return entry ? { file, ...entry } : undefined;
  }

  /** Records a use; written at most once a minute per workspace, unless its entry is new. */
  touch(file: string, root: string, now: number): void {
    const known = this.#data.workspaces[file];
    if (known && known.root === root && now - known.usedAt < 60_000) return;
    this.#data.workspaces[file] = { root, usedAt: now };
    this.#write();
  }

  forget(file: string): void {
    if (!(file in this.#data.workspaces)) return;
    delete this.#data.workspaces[file];
    this.#write();
  }

  #write(): void {
    try {
      const temp = `${this.#path}.tmp`;
      writeFileSync(temp, JSON.stringify(this.#data), { mode: 0o600 });
      renameSync(temp, this.#path);
    } catch {
      // A registry that cannot be written is rebuilt from later uses; searching goes on.
    }
  }
}
