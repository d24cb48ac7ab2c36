import { type FSWatcher, watch } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { setImmediate as yieldToCalls } from 'node:timers/promises';
import { SKIPPED_DIRS, walkFiles } from '../workspace-tools/index.ts';
import { GitignoreRules, rulesFolderOf } from './gitignore-rules.ts';
import { identifierPartsOf } from './identifier-words.ts';
import { type ReadFile, readIndexable } from './read-indexable.ts';
import { type IndexedFile, type IndexedSymbol, type IndexedText, type SearchScope, SearchIndexStore } from './search-index-store.ts';
import { gramsQuery, queryTerms, wordsQuery } from './search-query.ts';
import { type RankedDef, rankDefinitions, type SymbolGraph } from './repo-map-rank.ts';
import type { SymbolTag } from './symbol-tagger.ts';
import { type Prepared, SymbolThread } from './symbol-thread.ts';

const BATCH = 200;
/** Files written in one transaction of a build: small enough that the symbol worker is fed between two of them. */
const WRITE_SLICE = 25;
/** Files read at once. */
const READERS = 8;

export interface SearchIndexOptions {
  /** The workspace's real path. */
  root: string;
  /** The index's SQLite file. */
  file: string;
  /** Real paths of folders never indexed (Amber's data folder). */
  isDenied?: (path: string) => boolean;
  /** Follow edits with a file-system watcher (default true). */
  watch?: boolean;
  /** Quiet time after a change before it is indexed (default 50 ms); a search indexes what is pending at once. */
  debounceMs?: number;
  /**
   * Without a watcher (off, or it could not start or failed, e.g. past the system's limit of watches), a search
   * starts a new walk in the background when the last one ended longer ago than this (default 30 s).
   */
  rescanAfterMs?: number;
  /** Epoch milliseconds. */
  now?: () => number;
  /**
   * Finds definitions and references; must not reject (default: one SymbolThread shared by the process's indexes, a
   * worker thread started for a build or a batch of changes and ended when idle). With `prepare`, a changed file is read
   * and split there too (see SymbolThread.prepare); without it, or when it fails on a file, the file is read here.
   */
  tagger?: { tags(path: string, text: string): Promise<readonly SymbolTag[]>; prepare?(path: string, file: string): Promise<Prepared>; release?(): void };
}

let sharedTagger: SymbolThread | null = null;

/** A matching line: its path relative to the root, its 1-based number and its text. */
export interface SearchHit {
  path: string;
  line: number;
  text: string;
}

/** A changed file as the index writes it: its size, mtime and text (null when it is binary or too big). */
interface ReadForIndex {
  size: number;
  mtimeMs: number;
  text: IndexedText | null;
}

/** What the index keeps of a file read: its bytes, its identifiers' parts and its symbols, or null (binary, too big). */
async function indexedText(read: ReadFile, rel: string, tagger: NonNullable<SearchIndexOptions['tagger']>): Promise<IndexedText | null> {
  if (read.bytes === null) return null;
  const text = read.bytes.toString('utf8');
  const symbols = tagger.tags(rel, text);
  return { bytes: read.bytes, parts: identifierPartsOf(text), symbols: await symbols };
}

/** A file's text for the index without symbols (the symbol worker failed on it); null when it is binary or too big. */
function plainText(read: ReadFile): IndexedText | null {
  return read.bytes === null ? null : { bytes: read.bytes, parts: identifierPartsOf(read.bytes.toString('utf8')) };
}

const unchanged = (known: IndexedFile | undefined, info: { size: number; mtimeMs: number }) =>
  known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs;

/**
 * Keeps one workspace's index up to date in the plugin's process: a first walk compares every file's size
 * and mtime with the index (reading only what changed, dropping what is gone), then a recursive watcher
 * queues each change, indexed after a short quiet time or at once when a search comes. Results are read
 * again from the files, so a snippet always shows the text as it is now. The walk's rules are the tools':
 * no links followed, no data folder, no `.git` or `node_modules`, plus the workspace's `.gitignore` files and
 * `.git/info/exclude`: when one of those changes, the folder it rules is walked again (see #resync).
 */
export class SearchIndexService {
  readonly root: string;
  readonly #store: SearchIndexStore;
  readonly #options: SearchIndexOptions;
  readonly #ignore: GitignoreRules;
  readonly #tagger: NonNullable<SearchIndexOptions['tagger']>;
  readonly #pending = new Set<string>();
  #watcher: FSWatcher | null = null;
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #disposed = false;
  /** Files indexed so far in the first walk, and how many it found. */
  readonly progress = { done: 0, total: 0 };
  /** Resolves when the first walk is done. */
  readonly ready: Promise<void>;
  #built = false;
  #lastScan = 0;
  #rescanning: Promise<void> | null = null;
  /** The last symbol graph read from the index, while the index has not changed since. */
  #graph: { generation: number; scope: SearchScope; graph: SymbolGraph } | null = null;
  /** Said once in the next result: the index file was unreadable and is being built again. */
  notice: string | null = null;

  constructor(options: SearchIndexOptions) {
    this.root = options.root;
    this.#options = options;
    this.#ignore = new GitignoreRules(options.root);
    this.#tagger = options.tagger ?? (sharedTagger ??= new SymbolThread());
    this.#store = SearchIndexStore.open(options.file);
    if (this.#store.rebuilt) this.notice = 'The search index could not be read and is being built again from the workspace.';
    if (options.watch !== false) this.#watch();
    // Never rejects: a build that fails (the disk full, the index closed under it) leaves what it indexed, and says so.
    this.ready = this.#build()
      .catch((error: unknown) => {
        if (!this.#disposed) this.notice = `The search index could not be completed (${(error as Error).message}); results may miss files.`;
      })
      .finally(() => {
        this.#built = true;
        this.#lastScan = this.#now();
      });
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** The rule that keeps Amber's data folder out of this index (as the tool call that opened it gave it). */
  get isDenied(): (path: string) => boolean {
    return this.#options.isDenied ?? (() => false);
  }

  /** True while a watcher reports changes; else searches walk the workspace again now and then (see rescanAfterMs). */
  get watching(): boolean {
    return this.#watcher !== null;
  }

  /** Resolves when the walk a search started in the background (if any) is done. */
  async settled(): Promise<void> {
    await this.#rescanning;
  }

  #rescanIfStale(): void {
    if (this.#watcher || this.#rescanning || !this.#built || this.#disposed) return;
    if (this.#now() - this.#lastScan < (this.#options.rescanAfterMs ?? 30_000)) return;
    this.#rescanning = this.#build()
      .catch(() => {})
      .finally(() => {
        this.#lastScan = this.#now();
        this.#rescanning = null;
      });
  }

  get building(): boolean {
    return !this.#built;
  }

  /** True once closed (Rebuild, or its build stopped for another workspace's): it answers no search any more. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Leaves out what the tools never read or git ignores; `path` is absolute and inside the root. */
  #skipped(path: string): boolean {
    if (this.#options.isDenied?.(path)) return true;
    const rel = relative(this.root, path);
    if (rel.split(sep).some((name) => SKIPPED_DIRS.has(name))) return true;
    return this.#ignore.ignores(path);
  }

  async #build(): Promise<void> {
    // Each walk reads the rules files again: without a watcher, nothing else tells it that one changed.
    this.#ignore.forget(this.root);
    const known = this.#store.files();
    const found: string[] = [];
    for await (const entry of walkFiles(this.root, { skip: (p) => this.#skipped(p) })) {
      if (this.#disposed) return;
      if (entry.isFile) found.push(entry.path);
      this.progress.total = found.length;
    }
    const seen = new Set<string>();
    // The next batch is read (and tagged, in the symbol worker) while this one is written, a slice at a time with the
    // event loop let go between slices so the worker keeps getting files: the two overlap, at most two batches in memory.
    const readBatch = (from: number) => {
      const reading = this.#read(found.slice(from, from + BATCH), known, seen);
      // A build stopped meanwhile leaves the read unawaited: its failure must not become an unhandled rejection.
      reading.catch(() => undefined);
      return reading;
    };
    let reading = found.length > 0 ? readBatch(0) : null;
    for (let i = 0; reading !== null; i += BATCH) {
      const looked = await reading;
      if (this.#disposed) return;
      reading = i + BATCH < found.length ? readBatch(i + BATCH) : null;
      for (let at = 0; at < looked.length; at += WRITE_SLICE) {
        await yieldToCalls();
        if (this.#disposed) return;
        await this.#write(looked.slice(at, at + WRITE_SLICE), known);
      }
      this.progress.done = Math.min(found.length, i + BATCH);
    }
    this.#tagger.release?.();
    if (this.#disposed) return;
    this.#store.transaction(() => {
      for (const path of known.keys()) if (!seen.has(path)) this.#store.remove(path);
    });
  }

  /** Indexes the regular files among `paths` (absolute) whose size or mtime differ from what the index holds. */
  async #update(paths: string[], known: Map<string, IndexedFile>): Promise<void> {
    await this.#write(await this.#read(paths, known, new Set()), known);
  }

  /** Reads the files among `paths` that changed: each as read for the index, null when unchanged, undefined when not a regular file. */
  #read(paths: string[], known: Map<string, IndexedFile>, seen: Set<string>): Promise<[string, ReadForIndex | null | undefined][]> {
    return inParallel(paths, READERS, async (path): Promise<[string, ReadForIndex | null | undefined]> => {
      const rel = relative(this.root, path);
      seen.add(rel);
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isFile()) return [rel, undefined];
      if (unchanged(known.get(rel), info)) return [rel, null];
      return [rel, await this.#prepare(path, rel)];
    });
  }

  /**
   * Reads a changed file for the index in the symbol worker (its reading and splitting garbage is the worker's); when
   * the tagger has no worker, here; when the worker failed on the file, here and without symbols.
   */
  async #prepare(path: string, rel: string): Promise<ReadForIndex | undefined> {
    const prepared = this.#tagger.prepare ? await this.#tagger.prepare(rel, path) : null;
    if (prepared === 'gone') return undefined;
    if (prepared !== null && prepared !== 'failed') {
      const { file, tags } = prepared;
      return { size: file.size, mtimeMs: file.mtimeMs, text: file.bytes && { bytes: file.bytes, parts: file.parts, symbols: tags } };
    }
    const read = await readIndexable(path);
    if (!read) return undefined;
    const text = prepared === 'failed' ? plainText(read) : await indexedText(read, rel, this.#tagger);
    return { size: read.size, mtimeMs: read.mtimeMs, text };
  }

  /** Writes what `#read` found changed, with what is gone, in one transaction. */
  async #write(looked: [string, ReadForIndex | null | undefined][], known: Map<string, IndexedFile>): Promise<void> {
    const changed = looked.filter((e): e is [string, ReadForIndex] => Boolean(e[1]));
    const gone = looked.filter(([rel, read]) => read === undefined && known.has(rel)).map(([rel]) => rel);
    if (this.#disposed || (changed.length === 0 && gone.length === 0)) return;
    this.#store.transaction(() => {
      for (const rel of gone) this.#store.remove(rel);
      for (const [rel, read] of changed) this.#store.put(rel, read.size, read.mtimeMs, read.text);
    });
  }

  #watch(): void {
    try {
      this.#watcher = watch(this.root, { recursive: true }, (_event, name) => {
        if (name === null) return;
        this.#pending.add(join(this.root, name.toString()));
        if (this.#timer) clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void this.flush(), this.#options.debounceMs ?? 50);
      });
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = null;
      });
    } catch {
      this.#watcher = null;
    }
  }

  /** Indexes every change the watcher queued (after the first walk); a search calls it before it reads the index. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    // Never rejects: a change that cannot be indexed now is read again when a result shows it.
    this.#flushing = this.#flushing
      .then(async () => {
        await this.ready;
        this.#rescanIfStale();
        const paths = [...this.#pending];
        this.#pending.clear();
        if (paths.length === 0 || this.#disposed) return;
        const files: string[] = [];
        // Changed ignore rules are read again before any path is judged by them; their folders are walked again below.
        const ruled = [...new Set(paths.flatMap((path) => rulesFolderOf(this.root, path) ?? []))];
        for (const folder of ruled) this.#ignore.forget(folder);
        for (const path of paths) {
          if (this.#skipped(path)) continue;
          const info = await lstat(path).catch(() => undefined);
          if (info?.isDirectory()) {
            for await (const entry of walkFiles(path, { skip: (p) => this.#skipped(p) })) if (entry.isFile) files.push(entry.path);
          } else if (info?.isFile()) {
            files.push(path);
          } else {
            // Gone (a file, or a folder with all below it): rules read from its .gitignore files go with it.
            this.#ignore.forget(path);
            this.#store.remove(relative(this.root, path));
          }
        }
        await this.#update(
          files,
          new Map(
            files.map((p) => [relative(this.root, p), this.#store.get(relative(this.root, p))]).filter((e): e is [string, IndexedFile] => e[1] !== undefined),
          ),
        );
        for (const folder of ruled) if (!ruled.some((above) => above !== folder && folder.startsWith(above + sep))) await this.#resync(folder);
      })
      .catch(() => {});
    return this.#flushing;
  }

  /**
   * Walks `folder` again after ignore rules over it changed: files they now leave out leave the index, files they
   * let in are indexed.
   */
  async #resync(folder: string): Promise<void> {
    const prefix = folder === this.root ? '' : relative(this.root, folder) + sep;
    const found: string[] = [];
    if (folder === this.root || !this.#skipped(folder)) {
      for await (const entry of walkFiles(folder, { skip: (p) => this.#skipped(p) })) if (entry.isFile) found.push(entry.path);
    }
    const known = new Map([...this.#store.files()].filter(([rel]) => rel.startsWith(prefix)));
    const seen = new Set<string>();
    // Files the index holds already are kept as they are (the watcher reports their edits): only the others are read.
    const fresh = found.filter((path) => {
      const rel = relative(this.root, path);
      seen.add(rel);
      return !known.has(rel);
    });
    for (let i = 0; i < fresh.length; i += BATCH) {
      if (this.#disposed) return;
      await this.#write(await this.#read(fresh.slice(i, i + BATCH), known, seen), known);
    }
    if (this.#disposed) return;
    this.#store.transaction(() => {
      for (const rel of known.keys()) if (!seen.has(rel)) this.#store.remove(rel);
    });
  }

  /** Reads a result file again; a file changed since it was indexed is indexed again now. */
  async #current(rel: string): Promise<string | null> {
    const path = join(this.root, rel);
    // A file a changed .gitignore now leaves out is dropped when it would be shown.
    const read = this.#skipped(path) ? undefined : await readIndexable(path);
    const known = this.#store.get(rel);
    if (!read) {
      this.#store.remove(rel);
      return null;
    }
    if (!unchanged(known, read)) {
      const text = await indexedText(read, rel, this.#tagger);
      if (!this.#disposed) this.#store.transaction(() => this.#store.put(rel, read.size, read.mtimeMs, text));
    }
    return read.bytes === null ? null : read.bytes.toString('utf8');
  }

  /**
   * Ranked search for words, best first, each file with its lines that hold the most of the words. `more` is
   * true when more files matched than `limit`.
   */
  async searchText(query: string, scope: SearchScope, limit: number): Promise<{ files: { path: string; hits: SearchHit[] }[]; more: boolean }> {
    await this.flush();
    const words = [...new Set(queryTerms(query).flatMap((t) => [t.word, ...t.parts]))];
    // Files with every word as written first, then with every word or its identifier parts, then with any:
    // each stage ranked on its own, a later one only while fewer than `limit` files were found.
    const paths: string[] = [];
    const stages = [...new Set([wordsQuery(query, 'AND', false), wordsQuery(query, 'AND'), wordsQuery(query, 'OR')])];
    for (const match of stages) {
      if (match === null) continue;
      for (const path of this.#store.searchWords(match, scope, limit + 1)) if (!paths.includes(path)) paths.push(path);
      if (paths.length > limit) break;
    }
    const texts = await inParallel(paths.slice(0, limit), READERS, (path) => this.#current(path));
    const files = paths.flatMap((path, i) => (texts[i] == null ? [] : [{ path, hits: bestLines(texts[i], words, path) }]));
    return { files, more: paths.length > limit };
  }

  /** Lines holding `fragment` (case-insensitive), file by file in index order; `more` when there were more than `limit`. */
  async searchSubstring(fragment: string, scope: SearchScope, limit: number): Promise<{ hits: SearchHit[]; more: boolean }> {
    await this.flush();
    const match = gramsQuery(fragment);
    if (!match) return { hits: [], more: false };
    const needle = fragment.toLowerCase();
    const hits: SearchHit[] = [];
    for (let after = 0; ; ) {
      const page = this.#store.searchGrams(match, scope, after, READERS);
      if (page.length === 0) return { hits, more: false };
      after = page.at(-1)!.id;
      const texts = await inParallel(page, READERS, ({ path }) => this.#current(path));
      for (const [n, { path }] of page.entries()) {
        const lines = texts[n]?.split('\n') ?? [];
        for (let i = 0; i < lines.length; i++) {
          if (!lines[i]!.toLowerCase().includes(needle)) continue;
          if (hits.length >= limit) return { hits, more: true };
          hits.push({ path, line: i + 1, text: lines[i]! });
        }
      }
    }
  }

  /**
   * Where a symbol is defined, then the files that use it (most uses first), each with its line as the file reads
   * now; `more` when there were more than `limit`. Uses are the name as a whole word outside its definitions'
   * lines, found from the words index: calls, types, imports, and mentions in comments and strings alike.
   */
  async searchSymbol(name: string, scope: SearchScope, limit: number): Promise<{ hits: (IndexedSymbol & { text: string })[]; more: boolean }> {
    await this.flush();
    const first = this.#store.searchDefinitions(name, scope, limit + 1);
    await inParallel([...new Set(first.map((r) => r.path))], READERS, (path) => this.#current(path));
    // A file read again because it changed was indexed again: ask once more, so that lines match the text.
    const defs = this.#store.searchDefinitions(name, scope, limit + 1);
    const spelled = defs[0]?.name ?? name;
    const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${spelled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_$])`, defs.length ? 'gu' : 'giu');
    const defLines = new Map<string, Set<number>>();
    for (const def of defs) defLines.set(def.path, (defLines.get(def.path) ?? new Set()).add(def.line));
    const wanted = Math.max(0, limit - defs.length);
    const match = `"${spelled.replace(/"/g, '""')}"`;
    const candidates = wanted > 0 ? this.#store.searchWords(match, scope, Math.min(300, wanted * 3 + 1)) : [];
    const texts = await inParallel(candidates, READERS, (path) => this.#current(path));
    const uses: (IndexedSymbol & { text: string })[] = [];
    const lineTexts = new Map<string, string[]>();
    for (const [i, path] of candidates.entries()) {
      const lines = texts[i]?.split('\n');
      if (!lines) continue;
      lineTexts.set(path, lines);
      let count = 0;
      let at = 0;
      for (let n = 0; n < lines.length; n++) {
        if (defLines.get(path)?.has(n + 1)) continue;
        const found = lines[n]!.match(word)?.length ?? 0;
        if (found && !at) at = n + 1;
        count += found;
      }
      if (count) uses.push({ path, name: spelled, kind: 'ref', type: 'use', line: at, count, text: lines[at - 1]! });
    }
    uses.sort((a, b) => b.count - a.count);
    const defTexts = await inParallel(
      defs.slice(0, limit),
      READERS,
      async (def) => (lineTexts.get(def.path) ?? (await this.#current(def.path))?.split('\n'))?.[def.line - 1],
    );
    const hits = [...defs.slice(0, limit).flatMap((def, i) => (defTexts[i] === undefined ? [] : [{ ...def, text: defTexts[i] }])), ...uses.slice(0, wanted)];
    // With the definitions filling the limit, a file holding the word may use it: said as more.
    const usedElsewhere = wanted === 0 && this.#store.searchWords(match, scope, 1).length > 0;
    return { hits, more: defs.length > limit || uses.length > wanted || candidates.length > Math.min(300, wanted * 3) || usedElsewhere };
  }

  /**
   * An outline of the workspace's most central definitions (see rankDefinitions), leaning toward `focus`,
   * within about `tokens` tokens (4 characters each): files by their best definition's rank, each with its
   * definitions' lines as the file reads now, in file order.
   */
  async repoMap(options: { focus?: readonly string[]; scope: SearchScope; tokens: number }): Promise<{ text: string; files: number; symbols: number }> {
    await this.flush();
    const generation = this.#store.generation;
    if (!this.#graph || this.#graph.generation !== generation || this.#graph.scope !== options.scope) {
      this.#graph = { generation, scope: options.scope, graph: this.#store.symbolGraph(options.scope) };
    }
    const ranked = rankDefinitions(this.#graph.graph, { focus: options.focus ?? [] });
    const budget = options.tokens * 4;
    // Candidates by an estimate of 50 characters a line, then laid out with their real lines.
    const candidates: RankedDef[] = [];
    const candidateFiles = new Set<string>();
    let estimate = 0;
    for (const def of ranked) {
      if (estimate > budget * 1.5) break;
      estimate += 50 + (candidateFiles.has(def.path) ? 0 : def.path.length + 2);
      candidateFiles.add(def.path);
      candidates.push(def);
    }
    const paths = [...candidateFiles];
    const texts = await inParallel(paths, READERS, (path) => this.#current(path));
    const linesOf = new Map(paths.map((p, i) => [p, texts[i]?.split('\n') ?? null]));
    const chosen = new Map<string, { rank: number; lines: Map<number, string> }>();
    let used = 0;
    for (const def of candidates) {
      const line = linesOf.get(def.path)?.[def.line - 1];
      if (line === undefined || line.trim() === '') continue;
      const shown = clip(line.trim(), 120);
      const file = chosen.get(def.path);
      if (file?.lines.has(def.line)) continue;
      const cost = shown.length + 8 + (file ? 0 : def.path.length + 2);
      if (used + cost > budget) {
        if (used > budget * 0.9) break;
        continue;
      }
      used += cost;
      if (file) file.lines.set(def.line, shown);
      else chosen.set(def.path, { rank: def.rank, lines: new Map([[def.line, shown]]) });
    }
    const width = String(Math.max(1, ...[...chosen.values()].flatMap((f) => [...f.lines.keys()]))).length;
    const blocks = [...chosen].map(
      ([path, file]) =>
        `${path}:\n${[...file.lines]
          .sort((a, b) => a[0] - b[0])
          .map(([line, text]) => `  ${String(line).padStart(width)}: ${text}`)
          .join('\n')}`,
    );
    return { text: blocks.join('\n'), files: chosen.size, symbols: [...chosen.values()].reduce((n, f) => n + f.lines.size, 0) };
  }

  stats(): { files: number; bytes: number } {
    return this.#store.stats();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#store.close();
  }
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `run` over every item, at most `width` at a time; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

/** Up to three lines of a file that hold the most of the query's words, in file order. */
function bestLines(text: string, words: string[], path: string): SearchHit[] {
  const lines = text.split('\n');
  const scored: { line: number; score: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lower = lines[i]!.toLowerCase();
    let score = 0;
    for (const word of words) if (lower.includes(word)) score++;
    if (score > 0) scored.push({ line: i, score });
  }
  scored.sort((a, b) => b.score - a.score || a.line - b.line);
  return scored
    .slice(0, 3)
    .sort((a, b) => a.line - b.line)
    .map(({ line }) => ({ path, line: line + 1, text: lines[line]! }));
}
