import { join } from 'node:path';
import { EmbeddingClient, type EmbeddingClientOptions } from './embedding-client.ts';
import { type EmbeddingConfig, embeddingModelKey, TURN_ON_HINT } from './embedding-config.ts';
import type { SearchIndexService } from './search-index-service.ts';
import { type Embedder, SemanticIndex, type SemanticIndexOptions, type SemanticStatus } from './semantic-index.ts';
import { indexFileName } from './workspace-indexes.ts';

export interface SemanticIndexesOptions {
  /** The folder the lexical indexes are kept in (the plugin's data folder's `indexes`); null when there is none. */
  folder: string | null;
  /** The endpoint the user named, or null: semantic search is off. */
  config: EmbeddingConfig | null;
  /** Why the settings that are set cannot be used (then `config` is null). */
  problem?: string | null;
  /** Told when an index's status changes. Must not throw. */
  onChange?: () => void;
  client?: EmbeddingClientOptions;
  /** The embedder (a seam: default an EmbeddingClient on `config`). */
  embedder?: Embedder;
  index?: Pick<SemanticIndexOptions, 'batchSize' | 'pollMs' | 'retryMs' | 'now'>;
}

/** What the Settings row shows of one workspace's vectors. */
export interface SemanticView {
  root: string;
  status: SemanticStatus;
}

/**
 * The semantic side of each workspace index, when the user named an embeddings endpoint: one SemanticIndex per
 * open lexical index, made at the first search there (any mode), following that index (a new one after
 * Rebuild gets new vectors).
 */
export class SemanticIndexes {
  readonly #options: SemanticIndexesOptions;
  readonly #embedder: Embedder | null;
  readonly #open = new Map<string, { lexical: SearchIndexService; semantic: SemanticIndex }>();

  constructor(options: SemanticIndexesOptions) {
    this.#options = options;
    this.#embedder = options.config ? (options.embedder ?? new EmbeddingClient(options.config, options.client)) : null;
  }

  /** Null when semantic search is on; else the sentence that says why not and how to turn it on. */
  get off(): string | null {
    if (this.#options.config && this.#options.folder !== null) return null;
    if (this.#options.problem) return this.#options.problem;
    if (this.#options.folder === null) return 'Semantic search needs the plugin data folder, and this plugin has none.';
    return `Semantic search is off: no embeddings endpoint is set. Name one in ${TURN_ON_HINT}.`;
  }

  /** The model the vectors are made with, for the Settings row. */
  get model(): string | null {
    return this.#options.config?.model ?? null;
  }

  /** The vectors of a workspace's index, started when new; null when semantic search is off. */
  of(lexical: SearchIndexService): SemanticIndex | null {
    const config = this.#options.config;
    if (!config || this.#options.folder === null || !this.#embedder) return null;
    const file = indexFileName(lexical.root);
    const open = this.#open.get(file);
    if (open?.lexical === lexical) return open.semantic;
    open?.semantic.dispose();
    const semantic = new SemanticIndex({
      root: lexical.root,
      file: join(this.#options.folder, file),
      embedder: this.#embedder,
      modelKey: embeddingModelKey(config),
      lexical,
      ...(this.#options.onChange ? { onChange: this.#options.onChange } : {}),
      ...this.#options.index,
    });
    this.#open.set(file, { lexical, semantic });
    return semantic;
  }

  /** Closes a workspace's vectors before its index file is deleted (Rebuild). */
  forget(file: string): void {
    this.#open.get(file)?.semantic.dispose();
    this.#open.delete(file);
  }

  /** True while some workspace's vectors are being made. */
  get busy(): boolean {
    return [...this.#open.values()].some(({ semantic }) => semantic.busy);
  }

  views(): SemanticView[] {
    return [...this.#open.values()].map(({ semantic }) => ({ root: semantic.root, status: semantic.status }));
  }

  dispose(): void {
    for (const { semantic } of this.#open.values()) semantic.dispose();
    this.#open.clear();
  }
}
