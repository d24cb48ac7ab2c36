import { Worker } from 'node:worker_threads';
import { type PreparedFile, SymbolReply, type SymbolRequest } from './symbol-messages.ts';
import { languageOf, MAX_TAGGED_BYTES, type SymbolTag } from './symbol-tagger.ts';

/** The worker's script beside this module: TypeScript source in development and tests, the built entry in the app. */
const DEFAULT_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './symbol-worker.ts' : './symbol-worker.js', import.meta.url);

/** Files with the worker at once: it reads and parses the next while the index's thread writes what came back. */
const IN_FLIGHT = 8;

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

/** A file as the worker read it (see PreparedFile), 'gone' when it is not a regular file inside the root, 'failed' when the worker failed on it. */
export type Prepared = { file: PreparedFile; tags: SymbolTag[] } | 'gone' | 'failed';

interface Asked {
  id: number;
  request: SymbolRequest;
  settle: (reply: SymbolReply | null) => void;
}

/**
 * Finds a file's symbols in a worker thread (see serveSymbols), so that parsing never holds up the index's thread
 * and the grammars' WASM memory, which never shrinks while the worker lives, is handed back when it ends: the worker
 * starts with the first file to tag and ends when idle. For a build it also reads each file and splits its words
 * (`prepare`), so the garbage of that goes with the worker too. The worker's heap is bounded, its young generation
 * bounded too: it parses file after file, and a large young generation is memory held for garbage.
 * Files go to the worker in order, a few at a time, and it answers them in order: the oldest unanswered is the one
 * it works on, so a file that crashes the worker, runs past the timeout or gets a wrong answer is known. It gets no
 * symbols ('failed' from prepare), and the files sent after it go to a new worker. `tags` and `prepare` never reject.
 */
export class SymbolThread {
  readonly #script: URL;
  readonly #timeoutMs: number;
  readonly #idleMs: number;
  readonly #onStop: (() => void) | undefined;
  #worker: Worker | null = null;
  /** Sent to the worker and not answered, oldest first. */
  #sent: Asked[] = [];
  /** Not yet sent, oldest first. */
  #queued: Asked[] = [];
  #idle: NodeJS.Timeout | null = null;
  #timer: NodeJS.Timeout | null = null;
  #nextId = 0;
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
  async tags(path: string, text: string): Promise<SymbolTag[]> {
    if (this.#disposed || languageOf(path) === null || text.length > MAX_TAGGED_BYTES) return [];
    return (await this.#ask({ id: 0, path, text }))?.tags ?? [];
  }

  /** Reads `file` (absolute; `path` is its path in the workspace) in the worker: what the index keeps of it, its symbols included. */
  async prepare(path: string, file: string): Promise<Prepared> {
    if (this.#disposed) return 'failed';
    const reply = await this.#ask({ id: 0, path, file });
    if (!reply || reply.read === undefined) return 'failed';
    return reply.read === null ? 'gone' : { file: reply.read, tags: reply.tags };
  }

  /** Ends the worker now when no file is waiting (a build is done): its memory is handed back without the idle wait. */
  release(): void {
    if (this.#worker && this.#sent.length === 0 && this.#queued.length === 0) this.#stop(this.#worker);
  }

  #ask(request: SymbolRequest): Promise<SymbolReply | null> {
    return new Promise((resolve) => {
      const id = ++this.#nextId;
      this.#queued.push({ id, request: { ...request, id }, settle: resolve });
      this.#pump();
    });
  }

  /** Sends queued files while fewer than IN_FLIGHT are with the worker. */
  #pump(): void {
    if (this.#disposed || this.#queued.length === 0) return;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#start();
    if (!worker) {
      for (const asked of this.#queued.splice(0)) asked.settle(null);
      return;
    }
    while (this.#sent.length < IN_FLIGHT && this.#queued.length > 0) {
      const asked = this.#queued.shift()!;
      this.#sent.push(asked);
      // A text is copied to the worker (no transfer list): it stays the index's to write.
      worker.postMessage(asked.request, []);
    }
    this.#arm(worker);
  }

  /** The oldest file with the worker has timeoutMs from now (or from its predecessor's answer) to be answered. */
  #arm(worker: Worker): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = this.#sent.length > 0 ? setTimeout(() => this.#stop(worker), this.#timeoutMs) : null;
  }

  #answered(worker: Worker, raw: unknown): void {
    const reply = SymbolReply.safeParse(raw);
    const head = this.#sent[0];
    const expected = head && 'file' in head.request ? reply.success && reply.data.read !== undefined : reply.success && reply.data.read === undefined;
    // Anything but the answer to the oldest file sent ends the worker: that file gets no symbols.
    if (!head || !reply.success || reply.data.id !== head.id || !expected) return void this.#stop(worker);
    this.#sent.shift();
    head.settle(reply.data);
    this.#arm(worker);
    this.#pump();
    if (this.#sent.length === 0 && this.#queued.length === 0 && this.#worker && !this.#disposed) {
      this.#idle = setTimeout(() => this.#worker && this.#stop(this.#worker), this.#idleMs);
      this.#idle.unref();
    }
  }

  #start(): Worker | null {
    if (this.#worker) return this.#worker;
    let worker: Worker;
    try {
      // No inherited flags (a test runner's); a bounded heap, so a file that blows it ends the worker only; a young
      // generation of 4 MB, since what the worker allocates is garbage a file later (at 16 MB the bench's build peaked
      // 13 MB higher, at the same CPU time within the machine's noise).
      worker = new Worker(this.#script, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 4 } });
    } catch {
      return null;
    }
    worker.unref();
    worker.on('message', (raw: unknown) => this.#answered(worker, raw));
    worker.on('error', () => this.#stop(worker));
    worker.on('exit', () => this.#stop(worker));
    this.#worker = worker;
    return worker;
  }

  /** Ends `worker` (once): the file it had gets no symbols, and those sent after it go to a new worker. */
  #stop(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    if (this.#idle) clearTimeout(this.#idle);
    if (this.#timer) clearTimeout(this.#timer);
    this.#idle = null;
    this.#timer = null;
    void worker.terminate().catch(() => {});
    const [head, ...rest] = this.#sent.splice(0);
    this.#queued.unshift(...rest);
    head?.settle(null);
    this.#onStop?.();
    if (this.#disposed) for (const asked of this.#queued.splice(0)) asked.settle(null);
    else this.#pump();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#worker) this.#stop(this.#worker);
    for (const asked of this.#queued.splice(0)) asked.settle(null);
  }
}
