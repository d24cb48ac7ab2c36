import { Worker } from 'node:worker_threads';
import { SymbolReply } from './symbol-messages.ts';
import { languageOf, MAX_TAGGED_BYTES, type SymbolTag } from './symbol-tagger.ts';

/** The worker's script beside this module: TypeScript source in development and tests, the built entry in the app. */
const DEFAULT_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './symbol-worker.ts' : './symbol-worker.js', import.meta.url);

export interface SymbolThreadOptions {
  /** The worker's script (default: symbol-worker beside this module). */
  script?: URL;
  /** A file the worker has not answered for within this long is left without symbols, and the worker is ended (default 10 s). */
  timeoutMs?: number;
  /** The worker is ended after this long without a file to tag, so its memory (the grammars' WASM heap) is handed back (default 5 s). */
  idleMs?: number;
  /** Called each time a worker ends (idle, crashed, timed out or disposed). */
  onStop?: () => void;
}

interface Asked {
  id: number;
  settle: (tags: SymbolTag[]) => void;
}

/**
 * Finds a file's symbols in a worker thread (see serveSymbols), so that parsing never holds up the index's thread
 * and the grammars' WASM memory, which never shrinks while the worker lives, is handed back when it ends: the worker
 * starts with the first file to tag and ends when idle. One file is with the worker at a time (the rest wait in
 * order), so a file that crashes the worker or runs past the timeout is known: it gets no symbols, and the next file
 * starts a new worker. `tags` never rejects.
 */
export class SymbolThread {
  readonly #script: URL;
  readonly #timeoutMs: number;
  readonly #idleMs: number;
  readonly #onStop: (() => void) | undefined;
  #worker: Worker | null = null;
  #asked: Asked | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #idle: NodeJS.Timeout | null = null;
  #nextId = 0;
  /** Files asked about and not yet answered (the one with the worker and those waiting). */
  #waiting = 0;
  #disposed = false;

  constructor(options: SymbolThreadOptions = {}) {
    this.#script = options.script ?? DEFAULT_SCRIPT;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#idleMs = options.idleMs ?? 5_000;
    this.#onStop = options.onStop;
  }

  /** True while a worker is running. */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** The symbols of a file's text (see SymbolTagger.tags); none for a file no grammar reads, or when the worker fails on it. */
  tags(path: string, text: string): Promise<SymbolTag[]> {
    if (this.#disposed || languageOf(path) === null || text.length > MAX_TAGGED_BYTES) return Promise.resolve([]);
    this.#waiting++;
    const run = this.#queue.then(() => this.#ask(path, text)).finally(() => this.#waiting--);
    this.#queue = run;
    return run;
  }

  /** Ends the worker now when no file is waiting (a build is done): its memory is handed back without the idle wait. */
  release(): void {
    if (this.#worker && this.#waiting === 0) this.#stop(this.#worker);
  }

  #ask(path: string, text: string): Promise<SymbolTag[]> {
    if (this.#disposed) return Promise.resolve([]);
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#start();
    if (!worker) return Promise.resolve([]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#stop(worker), this.#timeoutMs);
      this.#asked = {
        id: ++this.#nextId,
        settle: (tags) => {
          clearTimeout(timer);
          this.#asked = null;
          if (this.#worker && !this.#disposed) {
            this.#idle = setTimeout(() => this.#worker && this.#stop(this.#worker), this.#idleMs);
            this.#idle.unref();
          }
          resolve(tags);
        },
      };
      // The text is copied to the worker (no transfer list): it stays the index's to write.
      worker.postMessage({ id: this.#asked.id, path, text }, []);
    });
  }

  #start(): Worker | null {
    if (this.#worker) return this.#worker;
    let worker: Worker;
    try {
      // No inherited flags (a test runner's), and a bounded JavaScript heap: a file that blows it ends the worker only.
      worker = new Worker(this.#script, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 256 } });
    } catch {
      return null;
    }
    worker.unref();
    worker.on('message', (raw: unknown) => {
      const reply = SymbolReply.safeParse(raw);
      // Anything but the answer to the file asked about ends the worker: the file gets no symbols.
      if (!reply.success || reply.data.id !== this.#asked?.id) return void this.#stop(worker);
      this.#asked.settle(reply.data.tags);
    });
    worker.on('error', () => this.#stop(worker));
    worker.on('exit', () => this.#stop(worker));
    this.#worker = worker;
    return worker;
  }

  /** Ends `worker` (once); the file it had gets no symbols. */
  #stop(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    void worker.terminate().catch(() => {});
    this.#asked?.settle([]);
    this.#onStop?.();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#worker) this.#stop(this.#worker);
  }
}
