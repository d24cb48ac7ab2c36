import { createHash } from 'node:crypto';
import { setImmediate as yieldToCalls } from 'node:timers/promises';
import { type CodeChunk, codeChunks } from './code-chunks.ts';
import { EmbeddingFailure } from './embedding-client.ts';
import { readWorkspaceText } from './read-workspace-text.ts';
import type { SearchScope } from './search-index-store.ts';
import { DimensionMismatch, type EmbeddedFile, SemanticStore } from './semantic-store.ts';

/** Inputs sent in one embeddings request (default). */
export const EMBED_BATCH = 32;
/** How often the index looks for changes the lexical index wrote (default). */
const POLL_MS = 2000;
/** The first wait after a failure, doubled at each failure in a row up to MAX_RETRY_MS. */
const RETRY_MS = 30_000;
const MAX_RETRY_MS = 10 * 60_000;
/** How long a search waits for its question's vector before text answers instead. */
const QUERY_TIMEOUT_MS = 10_000;
/** Chunks shown of one file in a result. */
const CHUNKS_PER_FILE = 2;

/** What embeds texts: one vector per input, rejecting with an EmbeddingFailure (see EmbeddingClient). */
export interface Embedder {
  embed(inputs: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface SemanticIndexOptions {
  /** The workspace's real path. */
  root: string;
  /** The index file (the lexical index's, already open). */
  file: string;
  embedder: Embedder;
  /** What the vectors are made with (endpoint, model, dimensions): other vectors in the file are dropped. */
  modelKey: string;
  /** The lexical index: vectors are made once its first build is done, from the files it read. */
  lexical: { readonly ready: Promise<void> };
  /** Told when the status changes (the Settings row is drawn again). Must not throw. */
  onChange?: () => void;
  batchSize?: number;
  pollMs?: number;
  retryMs?: number;
  /** How long a search waits for its question's vector (default 10 s); the client's own limit still applies. */
  queryTimeoutMs?: number;
  now?: () => number;
  /** Opens the store (a seam: default SemanticStore.open). */
  openStore?: (file: string) => SemanticStore;
}

/** Where the vectors stand, for the Settings row and the tool's notes. */
export type SemanticStatus =
  | { state: 'waiting' }
  | { state: 'embedding'; done: number; total: number }
  | { state: 'ready'; files: number; chunks: number }
  | { state: 'failed'; message: string; retryAt: number; files: number }
  | { state: 'unavailable'; message: string };

/** A result of a semantic search: files nearest first, each with its best chunks' first lines as the file reads now. */
export interface SemanticResult {
  files: { path: string; hits: { path: string; line: number; text: string; endLine: number; similarity: number }[] }[];
  more: boolean;
}

/** The first line of a chunk that says something (not blank, not only brackets), as the file reads now. */
function shownLine(lines: readonly string[], start: number, end: number): { line: number; text: string } | null {
  let first: { line: number; text: string } | null = null;
  for (let n = start; n <= Math.min(end, lines.length); n++) {
    const text = lines[n - 1]!;
    if (text.trim() === '') continue;
    first ??= { line: n, text };
    if (/[\p{L}\p{N}]/u.test(text)) return { line: n, text };
  }
  return first;
}

interface PendingFile {
  path: string;
  file: EmbeddedFile;
  chunks: CodeChunk[];
  vectors: Float32Array[];
  got: number;
}

/**
 * The vectors of one workspace's index, kept in the background: once the lexical index's first build is done,
 * and whenever it changes (it commits to the same file: `data_version` moves), each file it read whose size or
 * mtime differ from what was embedded is read again; a file whose text hash is unchanged is only recorded, the
 * others are cut into chunks and embedded in batches, each file written whole once its vectors are in. A failing
 * endpoint stops the pass with a status saying why; what was written stays, and the pass is tried again later
 * (30 s, doubling up to 10 minutes). Nothing here blocks a text, substring or symbol search: the requests are
 * awaited and each write is one small transaction.
 */
export class SemanticIndex {
  readonly root: string;
  readonly #options: SemanticIndexOptions;
  readonly #store: SemanticStore | null;
  readonly #abort = new AbortController();
  #status: SemanticStatus = { state: 'waiting' };
  #running: Promise<void> | null = null;
  #again = false;
  #seenVersion = -1;
  #failures = 0;
  #retryAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #disposed = false;

  constructor(options: SemanticIndexOptions) {
    this.root = options.root;
    this.#options = options;
    let store: SemanticStore | null = null;
    try {
      store = (options.openStore ?? ((file) => SemanticStore.open(file)))(options.file);
      store.useModel(options.modelKey);
    } catch (error) {
      store?.close();
      store = null;
      this.#status = { state: 'unavailable', message: `Semantic search cannot run here: ${(error as Error).message}` };
    }
    this.#store = store;
    if (!store) return;
    this.poke();
    this.#timer = setInterval(() => this.#check(), options.pollMs ?? POLL_MS);
    this.#timer.unref();
  }

  get status(): SemanticStatus {
    return this.#status;
  }

  /** True while vectors are being made or wait for the lexical index. */
  get busy(): boolean {
    return this.#status.state === 'embedding' || this.#status.state === 'waiting';
  }

  /** Resolves when the pass running now (if any) is done. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** Tells onChange, except of progress while embedding (the plugin's own timer draws that every second). */
  #set(status: SemanticStatus): void {
    const progress = status.state === 'embedding' && this.#status.state === 'embedding';
    this.#status = status;
    if (progress) return;
    try {
      this.#options.onChange?.();
    } catch {
      // A redraw that failed: the next change draws again.
    }
  }

  #check(): void {
    if (this.#disposed || this.#running || !this.#store) return;
    if (this.#status.state === 'failed' && this.#now() < this.#retryAt) return;
    if (this.#status.state !== 'failed' && this.#store.dataVersion() === this.#seenVersion) return;
    this.poke();
  }

  /** Starts a pass now (or right after the running one) unless the endpoint failed a moment ago. */
  poke(): void {
    if (this.#disposed || !this.#store) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#status.state === 'failed' && this.#now() < this.#retryAt) return;
    this.#running = this.#pass()
      .catch((error: unknown) => this.#failed(error))
      .finally(() => {
        this.#running = null;
        if (this.#again && !this.#disposed) {
          this.#again = false;
          this.poke();
        }
      });
  }

  #failed(error: unknown): void {
    if (this.#disposed || this.#abort.signal.aborted) return;
    this.#failures++;
    const wait = Math.min(MAX_RETRY_MS, (this.#options.retryMs ?? RETRY_MS) * 2 ** (this.#failures - 1));
    this.#retryAt = this.#now() + wait;
    const message =
      error instanceof EmbeddingFailure || error instanceof DimensionMismatch
        ? error.message
        : `Embedding stopped: ${(error as Error).message ?? String(error)}`;
    this.#set({ state: 'failed', message, retryAt: this.#retryAt, files: this.#store?.counts().files ?? 0 });
  }

  async #pass(): Promise<void> {
    await this.#options.lexical.ready;
    const store = this.#store;
    if (this.#disposed || !store) return;
    this.#seenVersion = store.dataVersion();
    const lexical = store.lexicalFiles();
    const embedded = store.embeddedFiles();
    for (const path of embedded.keys()) if (!lexical.has(path)) store.removeFile(path);
    const todo = [...lexical].filter(([path, info]) => {
      const known = embedded.get(path);
      return !known || known.size !== info.size || known.mtimeMs !== info.mtimeMs;
    });
    const total = todo.length;
    let done = 0;
    if (total > 0) this.#set({ state: 'embedding', done, total });
    const batch = this.#options.batchSize ?? EMBED_BATCH;
    const waiting: PendingFile[] = [];
    let queued: { file: PendingFile; index: number }[] = [];
    const send = async (count: number) => {
      const inputs = queued.slice(0, count);
      queued = queued.slice(count);
      const vectors = await this.#options.embedder.embed(
        inputs.map(({ file, index }) => file.chunks[index]!.text),
        this.#abort.signal,
      );
      if (this.#disposed) return;
      for (const [n, { file, index }] of inputs.entries()) {
        file.vectors[index] = vectors[n]!;
        file.got++;
      }
      while (waiting.length > 0 && waiting[0]!.got === waiting[0]!.chunks.length) {
        const file = waiting.shift()!;
        store.putFile(
          file.path,
          file.file,
          file.chunks.map((chunk, i) => ({ startLine: chunk.startLine, endLine: chunk.endLine, vector: file.vectors[i]! })),
        );
        this.#set({ state: 'embedding', done: ++done, total });
      }
    };
    for (const [path] of todo) {
      if (this.#disposed) return;
      const read = await readWorkspaceText(this.root, path);
      if (this.#disposed) return;
      if (!read) {
        if (embedded.has(path)) store.removeFile(path);
        this.#set({ state: 'embedding', done: ++done, total });
        continue;
      }
      const hash = createHash('sha256').update(read.text).digest('hex');
      if (embedded.get(path)?.hash === hash) {
        store.touchFile(path, read.size, read.mtimeMs);
        this.#set({ state: 'embedding', done: ++done, total });
        continue;
      }
      const file: PendingFile = {
        path,
        file: { size: read.size, mtimeMs: read.mtimeMs, hash },
        chunks: codeChunks(path, read.text, store.definitionLines(path)),
        vectors: [],
        got: 0,
      };
      waiting.push(file);
      for (let index = 0; index < file.chunks.length; index++) queued.push({ file, index });
      while (queued.length >= batch) await send(batch);
      await yieldToCalls();
    }
    while (queued.length > 0) await send(Math.min(batch, queued.length));
    if (this.#disposed) return;
    this.#failures = 0;
    const counts = store.counts();
    this.#set({ state: 'ready', files: counts.files, chunks: counts.chunks });
  }

  /** Files with vectors now. */
  counts(): { files: number; chunks: number } {
    return this.#store?.counts() ?? { files: 0, chunks: 0 };
  }

  /**
   * The files whose chunks are nearest to the query in meaning (cosine distance of their vectors), at most
   * `limit`, each with up to two of its chunks; rejects with an EmbeddingFailure when the query cannot be embedded.
   */
  async search(query: string, scope: SearchScope, limit: number): Promise<SemanticResult> {
    const store = this.#store;
    if (!store) return { files: [], more: false };
    const deadline = AbortSignal.timeout(this.#options.queryTimeoutMs ?? QUERY_TIMEOUT_MS);
    let vector: Float32Array | undefined;
    try {
      [vector] = await this.#options.embedder.embed([query], AbortSignal.any([this.#abort.signal, deadline]));
    } catch (error) {
      if (!deadline.aborted || this.#abort.signal.aborted) throw error;
      throw new EmbeddingFailure(
        `The embeddings endpoint did not answer the question within ${Math.round((this.#options.queryTimeoutMs ?? QUERY_TIMEOUT_MS) / 100) / 10} s.`,
      );
    }
    const hits = store.nearest(vector!, scope, Math.max(50, limit * 10));
    const byFile = new Map<string, typeof hits>();
    for (const hit of hits) {
      const list = byFile.get(hit.path) ?? [];
      if (list.length < CHUNKS_PER_FILE) list.push(hit);
      byFile.set(hit.path, list);
    }
    const files: SemanticResult['files'] = [];
    for (const [path, chunks] of byFile) {
      if (files.length >= limit) break;
      const read = await readWorkspaceText(this.root, path);
      if (!read) continue;
      const lines = read.text.split('\n');
      const shown = chunks.flatMap((chunk) => {
        const line = shownLine(lines, chunk.startLine, chunk.endLine);
        return line ? [{ path, ...line, endLine: Math.min(chunk.endLine, lines.length), similarity: 1 - chunk.distance }] : [];
      });
      if (shown.length) files.push({ path, hits: shown.sort((a, b) => a.line - b.line) });
    }
    // A file whose text changed since it was embedded is embedded again in the background.
    if (this.#status.state !== 'embedding') this.#check();
    return { files, more: byFile.size > files.length };
  }

  dispose(): void {
    this.#disposed = true;
    this.#abort.abort(new Error('The semantic index was closed.'));
    if (this.#timer) clearInterval(this.#timer);
    this.#store?.close();
  }
}
