import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  Entry,
  type EntryInput,
  type ModelContext,
  type SessionSummary,
  type TranscriptPage,
  type TreeNode,
} from '../../shared/sessions/index.ts';
import { preparePrivateDatabase } from '../data-dir.ts';
import { AmberError } from '../errors.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { ChainVerifier, integrityOf, type PathMark, TreeVerifier } from './chain-verifier.ts';
import { type BranchState, branchStateOf, ContextBuilder, type ContextRows } from './context-builder.ts';
import type { HashedRow } from './entry-hash.ts';
import { type EntryRow, type ParentRow, parseEntryRow } from './entry-row.ts';
import { IntegrityTracker } from './integrity-tracker.ts';
import { type StoredEntry, storedEntry } from './stored-entry.ts';
import { type CheckOptions, type ImportedSession, type LeafMove, type ListOptions, type SessionCheck, type SessionRow, type SessionStoreOptions, toSummary } from './session-store-types.ts';
import { migrate } from './migrations.ts';
import { orderedId } from './ordered-id.ts';
import { prepareSessionStatements, type SessionStatements } from './session-statements.ts';
import { SettingsStore } from './settings-store.ts';
import { type TreeOverviewPage, TreeReader } from './tree-reader.ts';

export type { BranchState } from './context-builder.ts';
export type { TreeOverviewNode, TreeOverviewPage } from './tree-reader.ts';
export type { CheckOptions, ImportedSession, LeafMove, ListOptions, SessionCheck, SessionStoreOptions } from './session-store-types.ts';

type Db = Database.Database;

/**
 * What an append under a session's leaf needs to know: the leaf, its stored fields the new entry builds on,
 * and whether the session has its preview yet. Kept from this store's own last write to the session and
 * trusted only while no other connection has committed since (PRAGMA data_version), so an append does not
 * read the session row and the leaf row again.
 */
interface Head {
  leafId: string | null;
  /** The leaf's stored fields; null for no leaf, or a leaf row not found (the insert then refuses the entry). */
  leaf: ParentRow | null;
  hasPreview: boolean;
  /** The depth of the session's verified path mark (-1: none). */
  markDepth: number;
}

/** Appends between two writes of a session's verified path mark (a restart verifies at most about this many). */
const PATH_MARK_STRIDE = 128;
/** Entries between two progress reports of a check. */
const CHECK_PROGRESS_EVERY = 10_000;

/** A listener that throws must not undo or fail the write it heard of: it is logged. */
const listenerFailed = (e: unknown): void => console.error('A session store listener failed', e);

/**
 * Sessions as trees of entries in one SQLite file. Every write is one transaction; payloads are
 * validated on write and on read. Safe to share a file between processes (WAL, busy timeout, leaf
 * read and moved inside an IMMEDIATE transaction).
 */
export class SessionStore {
  readonly #db: Db;
  readonly #clock: () => number;
  readonly #newId: () => string;
  readonly #q: SessionStatements;
  /** One transaction wrapper, made once: better-sqlite3's wrappers are costly to create per call. */
  readonly #tx: Database.Transaction<(fn: () => unknown) => unknown>;
  /** What reaches the model, with the parsed entries and walks it keeps between builds. */
  readonly #contexts = new ContextBuilder();
  /** The rows a context build reads, through this store's statements. */
  readonly #rows: ContextRows = {
    walkUp: (sessionId, id) => this.#q.walkUp.iterate({ session: sessionId, id, limit: -1 }) as Iterable<EntryRow>,
    hashOf: (sessionId, id) => this.#hashOf(sessionId, id),
    entry: (sessionId, id) => this.entry(sessionId, id),
    pathMark: (sessionId) => (this.#q.pathMark.get(sessionId) as PathMark | undefined) ?? null,
  };
  /** Per session: the entries found changed, and the leaves whose context paths were verified. */
  readonly #integrity = new IntegrityTracker(this.#rows);
  readonly #trees: TreeReader;
  /** The settings and plugin on/off tables of the same file. */
  readonly settings: SettingsStore;
  /** Per session, what the next append builds on; valid while `#dataVersion` is the file's (see Head). */
  readonly #heads = new Map<string, Head>();
  /** PRAGMA data_version when the caches that other connections can invalidate were last checked. */
  #dataVersion = -1;
  readonly #created = new Emitter<SessionSummary>(listenerFailed);
  readonly #changed = new Emitter<SessionSummary>(listenerFailed);
  readonly #deleted = new Emitter<{ sessionId: string }>(listenerFailed);
  readonly #leafMoved = new Emitter<LeafMove>(listenerFailed);
  /** A session was made: created, imported, or brought back from the trash. Fired after the write commits. */
  readonly onDidCreate: Event<SessionSummary> = this.#created.event;
  /** A session's summary changed (title, folder, message count, preview, updated time, leaf), with the new one. */
  readonly onDidChangeSummary: Event<SessionSummary> = this.#changed.event;
  readonly onDidDelete: Event<{ sessionId: string }> = this.#deleted.event;
  /** The session's leaf moved: an append moved it onto the new entry, or a branch moved it. After the commit. */
  readonly onDidMoveLeaf: Event<LeafMove> = this.#leafMoved.event;

  static open(file: string, options: SessionStoreOptions = {}): SessionStore {
    if (file !== ':memory:') preparePrivateDatabase(file);
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // Deleted and overwritten values (a key moved out of the settings, a deleted session) are zeroed, not left in free pages.
      db.pragma('secure_delete = ON');
      db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      // Checkpoints fsync the database file; doing one every ~4 MB of WAL (the default) made appends
      // three times slower. Every commit is still in the WAL before it returns (crash-safe).
      db.pragma('wal_autocheckpoint = 16000');
      db.pragma('journal_size_limit = 67108864');
      migrate(db);
    } catch (e) {
      db.close();
      throw e;
    }
    return new SessionStore(db, options);
  }

  private constructor(db: Db, options: SessionStoreOptions) {
    this.#db = db;
    this.#clock = options.clock ?? Date.now;
    this.#newId = options.newId ?? (() => orderedId());
    this.#q = prepareSessionStatements(db);
    this.settings = new SettingsStore(db, this.#clock);
    this.#trees = new TreeReader(this.#q);
    this.#tx = db.transaction((fn: () => unknown) => fn());
    if (options.synchronous === 'FULL') db.pragma('synchronous = FULL');
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction: the write lock is taken before the leaf is read. Inside it,
   * what another connection committed since this store last looked drops the kept heads first; a write that
   * fails drops them too (what it had noted may not have been committed).
   */
  #write<T>(fn: () => T): T {
    try {
      return this.#tx.immediate(() => {
        this.#syncDataVersion();
        return fn();
      }) as T;
    } catch (e) {
      this.#heads.clear();
      throw e;
    }
  }

  /** Forgets what other connections may have changed since this store last checked. */
  #syncDataVersion(): void {
    const version = this.#q.dataVersion.get() as number;
    if (version === this.#dataVersion) return;
    this.#heads.clear();
    this.#contexts.forgetWalks();
    this.#dataVersion = version;
  }

  get schemaVersion(): number {
    return this.#db.pragma('user_version', { simple: true }) as number;
  }

  /** SQLite's own integrity check: 'ok' for a sound file. */
  pragmaIntegrity(): string {
    return this.#db.pragma('integrity_check', { simple: true }) as string;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
    for (const emitter of [this.#created, this.#changed, this.#deleted, this.#leafMoved]) emitter.dispose();
  }

  // ── sessions ────────────────────────────────────────────────────────────

  create(options: { title?: string; cwd?: string | null; id?: string } = {}): SessionSummary {
    const now = this.#clock();
    const id = options.id ?? randomUUID();
    try {
      this.#q.insertSession.run({ id, title: options.title ?? '', now, cwd: options.cwd ?? null });
    } catch (e) {
      if (String(e).includes('UNIQUE')) throw new AmberError('conflict', `A session with id ${id} already exists.`);
      throw e;
    }
    const summary = this.get(id);
    this.#created.fire(summary);
    return summary;
  }

  get(sessionId: string): SessionSummary {
    return toSummary(this.#session(sessionId));
  }

  list(options: ListOptions = {}): SessionSummary[] {
    const limit = Math.max(1, Math.min(options.limit ?? 1000, 10_000));
    const offset = Math.max(0, options.offset ?? 0);
    const query = options.query?.trim();
    const rows = query
      ? (this.#q.searchSessions.all({ pattern: `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit, offset }) as SessionRow[])
      : (this.#q.listSessions.all({ limit, offset }) as SessionRow[]);
    return rows.map(toSummary);
  }

  count(): number {
    return (this.#q.countSessions.get() as { n: number }).n;
  }

  rename(sessionId: string, title: string): SessionSummary {
    const clean = title.trim();
    if (!clean) throw new AmberError('invalid_input', 'A session title cannot be empty.');
    const info = this.#q.renameSession.run({ id: sessionId, title: clean.slice(0, 200), now: this.#clock() });
    if (info.changes === 0) throw this.#missing(sessionId);
    return this.#summaryChanged(sessionId, true);
  }

  /** Sets the conversation's workspace folder (main checks it first; see src/main/workspace). */
  setCwd(sessionId: string, cwd: string | null): SessionSummary {
    const info = this.#q.setSessionCwd.run({ id: sessionId, cwd });
    if (info.changes === 0) throw this.#missing(sessionId);
    return this.#summaryChanged(sessionId, true);
  }

  delete(sessionId: string): void {
    this.#write(() => {
      this.#session(sessionId);
      this.#q.deleteEntries.run(sessionId);
      this.#q.deleteSession.run(sessionId);
      this.#heads.delete(sessionId);
    });
    this.#contexts.forgetWalks(sessionId);
    this.#integrity.forget(sessionId);
    this.#deleted.fire({ sessionId });
  }

  // ── entries ─────────────────────────────────────────────────────────────

  /** Appends under the session's leaf and moves the leaf to the new entry. */
  append(sessionId: string, input: EntryInput): Entry {
    const entry = this.#write(() => {
      const head = this.#head(sessionId);
      const known = this.#integrity.writable(sessionId, head.leafId);
      const appended = this.#appendUnder(sessionId, head, input);
      known.addLeaf(appended.id);
      this.#markPath(sessionId, head);
      return appended;
    });
    this.#moved(sessionId, entry.id);
    return entry;
  }

  /** Appends several entries in order, each under the previous one, in one transaction. */
  appendMany(sessionId: string, inputs: EntryInput[]): Entry[] {
    const out = this.#write(() => {
      const head = this.#head(sessionId);
      const known = this.#integrity.writable(sessionId, head.leafId);
      const entries = inputs.map((input) => this.#appendUnder(sessionId, head, input));
      if (head.leafId !== null) known.addLeaf(head.leafId);
      this.#markPath(sessionId, head);
      return entries;
    });
    const last = out.at(-1);
    if (last) this.#moved(sessionId, last.id);
    return out;
  }

  /** Moves the leaf so that the next append forks from `entryId` (null: the next append starts a new root). */
  branch(sessionId: string, entryId: string | null): void {
    this.#write(() => {
      this.#session(sessionId);
      if (entryId !== null) this.#row(sessionId, entryId);
      this.#q.setLeaf.run({ id: sessionId, leaf: entryId, now: this.#clock() });
      this.#heads.delete(sessionId);
    });
    this.#moved(sessionId, entryId);
  }

  leaf(sessionId: string): string | null {
    return this.#session(sessionId).leaf_id;
  }

  entry(sessionId: string, entryId: string): Entry {
    return parseEntryRow(this.#row(sessionId, entryId));
  }

  children(sessionId: string, entryId: string | null): string[] {
    this.#session(sessionId);
    const rows = (entryId === null ? this.#q.roots.all(sessionId) : this.#q.children.all(sessionId, entryId)) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** The entry's siblings (itself included) in creation order, and its position among them. */
  siblings(sessionId: string, entryId: string): { ids: string[]; index: number } {
    const row = this.#row(sessionId, entryId);
    const ids = this.children(sessionId, row.parent_id);
    return { ids, index: ids.indexOf(entryId) };
  }

  /** The newest leaf below `entryId`, following the most recent child at each step (for sibling switching). */
  newestLeafUnder(sessionId: string, entryId: string): string {
    this.#row(sessionId, entryId);
    let current = entryId;
    for (;;) {
      const next = this.#q.newestChild.get(sessionId, current) as { id: string } | undefined;
      if (!next) return current;
      current = next.id;
    }
  }

  /** The whole tree, compactly, in creation order; labels resolved (the newest label on a target wins). */
  tree(sessionId: string): TreeNode[] {
    this.#session(sessionId);
    return this.#trees.tree(sessionId);
  }

  /**
   * A page of the tree overview: the branch from `before` (exclusive; default: from the leaf) up toward the
   * root, each node with its child count and label, no payloads read. Its cost does not grow with the session.
   */
  treePage(sessionId: string, options: { before?: string | null; limit?: number } = {}): TreeOverviewPage {
    const leafId = this.leaf(sessionId);
    const start = options.before ? this.#row(sessionId, options.before).parent_id : leafId;
    return this.#trees.page(sessionId, start, Math.max(1, Math.min(options.limit ?? 200, 2000)), leafId);
  }

  /** Every entry of a session in creation order (parents before children); for export. */
  *allEntries(sessionId: string): Generator<Entry> {
    this.#session(sessionId);
    for (const row of this.#q.allEntries.iterate(sessionId) as Iterable<EntryRow>) yield parseEntryRow(row);
  }

  /** Entries from the root to `leafId` (default: the session's leaf). Walks the whole path: prefer page/context. */
  path(sessionId: string, leafId?: string | null): Entry[] {
    const start = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (start === null) return [];
    return (this.#q.walkUp.all({ session: sessionId, id: start, limit: -1 }) as EntryRow[]).reverse().map((r) => parseEntryRow(r));
  }

  /** A page of the current branch, from `before` (exclusive; default: from the leaf) up toward the root. */
  page(sessionId: string, options: { before?: string | null; limit?: number } = {}): TranscriptPage {
    const leafId = this.leaf(sessionId);
    const limit = Math.max(1, Math.min(options.limit ?? 100, 1000));
    // The first page is what a window shows on opening a session: it learns whether the session is read-only.
    const known = options.before ? this.#integrity.known(sessionId) : this.#integrity.verified(sessionId, leafId);
    let start: string | null = leafId;
    if (options.before) start = this.#row(sessionId, options.before).parent_id;
    if (start === null) return { entries: [], before: null, leafId, integrity: integrityOf(known.changed) };
    const rows = this.#q.walkUp.all({ session: sessionId, id: start, limit: limit + 1 }) as EntryRow[];
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const verifier = new ChainVerifier();
    for (const row of rows) verifier.push(row);
    // With more rows than the page, the extra row only lends its hash to the page's oldest entry.
    const changed = more ? verifier.changed : verifier.finish((id) => this.#hashOf(sessionId, id));
    for (const id of changed) known.changed.add(id);
    const entries = pageRows.reverse().map((r) => parseEntryRow(r));
    return { entries, before: more ? entries[0]!.id : null, leafId, integrity: integrityOf(known.changed) };
  }

  /**
   * The context for the model at `leafId` (default: the leaf): the path cut at the newest compaction on
   * it — its summary, then the entries from its first kept entry on. Walks no further than that cut, and
   * when the session's last walk ended at an entry on this path with no compaction below it (a run's next
   * turn), no further than that entry: while no other connection has committed since, what is above it is
   * as that walk read and verified it.
   */
  context(sessionId: string, leafId?: string | null): ModelContext {
    this.#syncDataVersion();
    const leaf = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (leaf === null) return { leafId: leaf, entries: [], messages: [], model: null, thinkingLevel: null, integrity: integrityOf([]) };
    this.#row(sessionId, leaf);
    const context = this.#contexts.build(sessionId, leaf, this.#rows);
    this.#integrity.known(sessionId).remember(leaf, context.integrity.changed);
    return context;
  }

  /**
   * The model and thinking level of the branch at `leafId` (default: the leaf), without building its
   * context: two stored references on the leaf's row, and the two entries they name.
   */
  branchState(sessionId: string, leafId?: string | null): BranchState {
    const leaf = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (leaf === null) return { model: null, thinkingLevel: null };
    const refs = this.#q.parentRow.get(sessionId, leaf) as ParentRow | undefined;
    if (!refs) throw new AmberError('not_found', `Entry ${leaf} is not in session ${sessionId}.`);
    return branchStateOf(refs, (id) => this.entry(sessionId, id));
  }

  /**
   * Verifies every entry of the session against its chained hash (parents before children), naming each
   * entry whose stored fields no longer match. A session found changed becomes read-only in this store.
   */
  check(sessionId: string, options: CheckOptions = {}): SessionCheck {
    this.#session(sessionId);
    const after = options.sinceLast ? ((this.#q.checkedSeq.get(sessionId) as number | undefined) ?? 0) : 0;
    const total = options.onProgress ? (this.#q.countRowsAfter.get(sessionId, after) as number) : 0;
    const verifier = new TreeVerifier();
    let newest = after;
    for (const row of this.#q.hashRowsAfter.iterate(sessionId, after) as Iterable<HashedRow & { seq: number }>) {
      verifier.push(row);
      newest = row.seq;
      if (options.onProgress && verifier.count % CHECK_PROGRESS_EVERY === 0) options.onProgress(verifier.count, total);
    }
    // Rows hanging from entries before the mark are checked against those entries' stored hashes.
    const changed = verifier.finish((id) => this.#hashOf(sessionId, id));
    if (changed.length === 0 && newest > after) this.#q.setCheckedSeq.run(sessionId, newest);
    const known = this.#integrity.known(sessionId);
    for (const id of changed) known.changed.add(id);
    return { sessionId, entries: verifier.count, ...integrityOf(changed), ...(after > 0 ? { sinceLast: true } : {}) };
  }

  /** Imports a whole session (ids, tree shape and leaf kept) in one transaction: all or nothing. */
  importSession(data: ImportedSession): SessionSummary {
    const summary = this.#write(() => {
      const now = this.#clock();
      const id = data.id ?? randomUUID();
      if (this.#q.session.get(id)) throw new AmberError('conflict', `A session with id ${id} already exists; import it as a new session instead.`);
      this.#q.insertSession.run({ id, title: data.title ?? '', now: data.createdAt ?? now, cwd: data.cwd ?? null });
      // The session row is written once, after the entries; each parent's stored fields come from memory.
      const rows = new Map<string, ParentRow>();
      let messages = 0;
      let preview: string | null = null;
      let title: string | null = null;
      for (const entry of data.entries) {
        const { id: entryId, parentId, timestamp, ...rest } = entry;
        const stored = this.#insert(id, { ...rest, id: entryId, timestamp } as EntryInput, parentId, parentId === null ? null : rows.get(parentId));
        rows.set(stored.entry.id, stored.row);
        const written = stored.entry;
        if (written.type === 'message') {
          messages++;
          // The session's preview is its first user message's text (an empty text leaves it to the next).
          if (preview === null && written.message.role === 'user' && stored.preview !== '') preview = stored.preview;
        }
        if (written.type === 'session_info' && written.name) title = written.name.slice(0, 200);
      }
      if (data.leafId !== null) this.#row(id, data.leafId);
      this.#q.importedSummary.run({ id, leaf: data.leafId, now: this.#clock(), messages, preview, title });
      this.#integrity.reset(id, data.leafId === null ? [] : [data.leafId]);
      return this.get(id);
    });
    this.#created.fire(summary);
    return summary;
  }

  // ── settings and plugin state (small tables that live beside the sessions) ──

  getSetting(key: string): string | null {
    return this.settings.getSetting(key);
  }

  setSetting(key: string, value: string | null): void {
    this.settings.setSetting(key, value);
  }

  pluginStates(): Map<string, boolean> {
    return this.settings.pluginStates();
  }

  setPluginState(pluginId: string, enabled: boolean): void {
    this.settings.setPluginState(pluginId, enabled);
  }

  // ── internals ───────────────────────────────────────────────────────────

  /** Announces a committed leaf move, and the summary it changed (read only when someone listens). */
  #moved(sessionId: string, leafId: string | null): void {
    this.#leafMoved.fire({ sessionId, leafId });
    this.#summaryChanged(sessionId, false);
  }

  /** Announces the session's new summary; `always`: the caller wants it back, so it is read even with no listener. */
  #summaryChanged(sessionId: string, always: true): SessionSummary;
  #summaryChanged(sessionId: string, always: false): void;
  #summaryChanged(sessionId: string, always: boolean): SessionSummary | void {
    if (!always && this.#changed.listenerCount === 0) return;
    const summary = this.get(sessionId);
    this.#changed.fire(summary);
    return summary;
  }

  /** What the next append to the session builds on: kept from this store's last write, else read. */
  #head(sessionId: string): Head {
    const kept = this.#heads.get(sessionId);
    if (kept) return kept;
    const session = this.#session(sessionId);
    const leaf = session.leaf_id === null ? null : ((this.#q.parentRow.get(sessionId, session.leaf_id) as ParentRow | undefined) ?? null);
    const markDepth = (this.#rows.pathMark(sessionId)?.depth ?? -1);
    const head: Head = { leafId: session.leaf_id, leaf, hasPreview: session.preview !== '', markDepth };
    this.#heads.set(sessionId, head);
    return head;
  }

  /**
   * Moves the session's verified path mark down to the head's leaf once it is PATH_MARK_STRIDE entries below
   * the mark. Called inside an append's transaction, after the leaf's path was verified (or written here).
   */
  #markPath(sessionId: string, head: Head): void {
    if (head.leafId === null || !head.leaf || head.leaf.depth - head.markDepth < PATH_MARK_STRIDE) return;
    this.#q.setPathMark.run({ session: sessionId, id: head.leafId, hash: head.leaf.hash, depth: head.leaf.depth });
    head.markDepth = head.leaf.depth;
  }

  /** Inserts under the head's leaf and moves the head (in memory) and the session's row to the new entry. */
  #appendUnder(sessionId: string, head: Head, input: EntryInput): Entry {
    const now = this.#clock();
    const { entry, row, preview } = this.#insert(sessionId, input, head.leafId, head.leaf, now);
    const isMessage = entry.type === 'message';
    // The session's preview is its first user message's text (an empty text leaves it empty).
    const firstUserText = isMessage && entry.message.role === 'user' && !head.hasPreview ? preview : null;
    const title = entry.type === 'session_info' && entry.name ? entry.name.slice(0, 200) : null;
    this.#q.afterAppend.run({ id: sessionId, leaf: entry.id, now, messages: isMessage ? 1 : 0, preview: firstUserText, title });
    head.leafId = entry.id;
    head.leaf = row;
    head.hasPreview ||= firstUserText !== null && firstUserText !== '';
    return entry;
  }

  /**
   * Inserts one entry under `parentId`. `parent`: the parent's stored fields when the caller has them
   * (undefined: they are read). Returns the stored entry, with what the next entry under it needs.
   */
  #insert(sessionId: string, input: EntryInput, parentId: string | null, parent?: ParentRow | null, now = this.#clock()): StoredEntry {
    const above = parentId === null ? null : (parent ?? ((this.#q.parentRow.get(sessionId, parentId) as ParentRow | undefined) ?? null));
    const stored = storedEntry(sessionId, input, parentId, above, { newId: this.#newId, now });
    const { entry } = stored;
    if (entry.type === 'compaction' && !this.#onPath(sessionId, parentId, entry.firstKeptEntryId)) {
      throw new AmberError('invalid_input', `Refused compaction ${entry.id}: the entry it keeps from, ${entry.firstKeptEntryId}, is not on its branch.`);
    }
    if (entry.type === 'label' && !this.#q.parentRow.get(sessionId, entry.targetId)) {
      throw new AmberError('invalid_input', `Refused a label: its target ${entry.targetId} is not in session ${sessionId}.`);
    }
    try {
      this.#q.insertEntry.run(stored.params);
    } catch (e) {
      if (String(e).includes('UNIQUE')) throw new AmberError('conflict', `Entry id ${entry.id} is already used in session ${sessionId}.`);
      throw e;
    }
    return stored;
  }

  /** Whether `target` is `from` or one of its ancestors; walks only as far as it must. */
  #onPath(sessionId: string, from: string | null, target: string): boolean {
    if (from === null) return false;
    for (const row of this.#q.walkUpIds.iterate({ session: sessionId, id: from }) as Iterable<{ id: string }>) {
      if (row.id === target) return true;
    }
    return false;
  }

  #hashOf(sessionId: string, entryId: string): string {
    return (this.#q.hashOf.get(sessionId, entryId) as { hash: string } | undefined)?.hash ?? '';
  }

  #session(sessionId: string): SessionRow {
    const row = this.#q.session.get(sessionId) as SessionRow | undefined;
    if (!row) throw this.#missing(sessionId);
    return row;
  }

  #row(sessionId: string, entryId: string): EntryRow {
    const row = this.#q.entry.get(sessionId, entryId) as EntryRow | undefined;
    if (!row) throw new AmberError('not_found', `Entry ${entryId} is not in session ${sessionId}.`);
    return row;
  }

  #missing(sessionId: string): AmberError {
    return new AmberError('not_found', `Session ${sessionId} does not exist (it may have been deleted).`);
  }
}
