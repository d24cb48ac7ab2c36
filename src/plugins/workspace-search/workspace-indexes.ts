import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SearchIndexService } from './search-index-service.ts';

/** The index file of a workspace: named by a hash of its real path, so a moved folder starts a new cache. */
export function indexFileName(realRoot: string): string {
  return `${createHash('sha256').update(realRoot).digest('hex').slice(0, 24)}.sqlite`;
}

/**
 * One SearchIndexService per workspace the plugin has been asked about, opened on first use in `folder`
 * (the plugin's data folder); none when the plugin was given no folder to keep indexes in.
 */
export class WorkspaceIndexes {
  readonly #folder: string | null;
  readonly #indexes = new Map<string, SearchIndexService>();
  readonly #watch: boolean;

  constructor(folder: string | null, options: { watch?: boolean } = {}) {
    this.#folder = folder;
    this.#watch = options.watch ?? true;
  }

  get(realRoot: string, isDenied: (path: string) => boolean): SearchIndexService | null {
    if (this.#folder === null) return null;
    let index = this.#indexes.get(realRoot);
    if (!index) {
      mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
      index = new SearchIndexService({ root: realRoot, file: join(this.#folder, indexFileName(realRoot)), isDenied, watch: this.#watch });
      this.#indexes.set(realRoot, index);
    }
    return index;
  }

  dispose(): void {
    for (const index of this.#indexes.values()) index.dispose();
    this.#indexes.clear();
  }
}
