import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { countsAsMessage, type Entry, type EntryInput, type SessionParent, type SessionSummary } from '../../shared/sessions/index.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { preparePrivateDatabase } from '../data-dir.ts';
import { AmberError } from '../errors.ts';
import { BlobStore } from './blob-store.ts';
import { integrityOf, TreeVerifier } from './chain-verifier.ts';
import type { HashedRow } from './entry-hash.ts';
import type { ParentRow } from './entry-row.ts';
import { externalizeImages, imageHashes } from './image-blobs.ts';
import { migrate } from './migrations.ts';
import { orderedId } from './ordered-id.ts';
import { SessionReader } from './session-reader.ts';
import { prepareSessionStatements } from './session-statements.ts';
import type { CheckOptions, Head, ImportedSession, LeafMove, SessionCheck, SessionStoreOptions } from './session-store-types.ts';
import { SettingsStore } from './settings-store.ts';
import { type StoredEntry, storedEntry } from './stored-entry.ts';

export type { BranchState } from './context-builder.ts';
export type { TreeBranchPage, TreeOverviewNode, TreeOverviewPage } from './tree-reader.ts';
export type { CheckOptions, ImportedSession, LeafMove, ListOptions, SessionCheck, SessionStoreOptions } from './session-store-types.ts';

type Db = Database.Database;

/** Appends between two writes of a session's verified path mark (a restart verifies at most about this many). */
const PATH_MARK_STRIDE = 128;
/** Appends between two writes of their session's row (its leaf is derived in between; see migration 7). */
const ROW_STRIDE = 64;
/** Entries between two progress reports of a check. */
const CHECK_PROGRESS_EVERY = 10_000;

/** A listener that throws must not undo or fail the write it heard of: it is logged. */
const listenerFailed = (e: unknown): void => console.error('A session store listener failed', e);

/**
 * Sessions as trees of entries in one SQLite file. Every write is one transaction; payloads are
 * validated on write and on read. Safe to share a file between processes (WAL, busy timeout, leaf
 * read and moved inside an IMMEDIATE transaction).
 */
export class SessionStore extends SessionReader {
  readonly #db: Db;
  readonly #clock: () => number;
  readonly #newId: () => string;
  /** One transaction wrapper, made once: better-sqlite3's wrappers are costly to create per call. */
  readonly #tx: Database.Transaction<(fn: () => unknown) => unknown>;
  /** The settings and plugin on/off tables of the same file. */
  readonly settings: SettingsStore;
  /** The images entries name by hash (see image-blobs.ts). */
  readonly blobs: BlobStore;
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
    const store = new SessionStore(db, options);
    // The images of conversations deleted before this open (see BlobStore.sweep).
    store.blobs.sweep();
    return store;
  }

  private constructor(db: Db, options: SessionStoreOptions) {
    super(prepareSessionStatements(db));
    this.#db = db;
    this.#clock = options.clock ?? Date.now;
    this.#newId = options.newId ?? (() => orderedId());
    this.settings = new SettingsStore(db, this.#clock);
    this.blobs = new BlobStore(db, this.#clock);
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
        this.syncDataVersion();
        return fn();
      }) as T;
    } catch (e) {
      this.heads.clear();
      throw e;
    }
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

  /** `parent`: a child agent's conversation, linked to the task call that started it and left out of `list()`. */
  create(options: { title?: string; cwd?: string | null; id?: string; parent?: SessionParent } = {}): SessionSummary {
    const now = this.#clock();
    const id = options.id ?? randomUUID();
    try {
      this.q.insertSession.run({
        id,
        title: options.title ?? '',
        now,
        cwd: options.cwd ?? null,
        parentSessionId: options.parent?.sessionId ?? null,
        parentToolCallId: options.parent?.toolCallId ?? null,
      });
    } catch (e) {
      if (String(e).includes('UNIQUE')) throw new AmberError('conflict', `A conversation with id ${id} already exists.`);
      throw e;
    }
    const summary = this.get(id);
    this.#created.fire(summary);
    return summary;
  }

  /** The conversations of the child agents a conversation's task calls started (see `create`'s `parent`). */
  childSessions(sessionId: string): string[] {
    return this.q.childSessions.all(sessionId) as string[];
  }

  rename(sessionId: string, title: string): SessionSummary {
    const clean = title.trim();
    if (!clean) throw new AmberError('invalid_input', 'A conversation title cannot be empty.');
    const info = this.q.renameSession.run({ id: sessionId, title: clean.slice(0, 200), now: this.#clock() });
    if (info.changes === 0) throw this.missing(sessionId);
    return this.#summaryChanged(sessionId, true);
  }

  /** Sets the conversation's workspace folder (main checks it first; see src/main/workspace). */
  setCwd(sessionId: string, cwd: string | null): SessionSummary {
    const info = this.q.setSessionCwd.run({ id: sessionId, cwd });
    if (info.changes === 0) throw this.missing(sessionId);
    return this.#summaryChanged(sessionId, true);
  }

  delete(sessionId: string): void {
    this.#write(() => {
      this.session(sessionId);
      this.q.deleteEntries.run(sessionId);
      this.q.deleteSession.run(sessionId);
      this.heads.delete(sessionId);
    });
    this.contexts.forgetWalks(sessionId);
    this.integrity.forget(sessionId);
    this.#deleted.fire({ sessionId });
  }

  // ── entries ─────────────────────────────────────────────────────────────

  /** Appends under the session's leaf and moves the leaf to the new entry. */
  append(sessionId: string, input: EntryInput): Entry {
    const entry = this.#write(() => {
      const head = this.#head(sessionId);
      const known = this.integrity.writable(sessionId, head.leafId);
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
      const known = this.integrity.writable(sessionId, head.leafId);
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
      this.session(sessionId);
      const target = entryId === null ? null : this.row(sessionId, entryId);
      const head = this.#head(sessionId);
      // Entries appended later below the new leaf are newer than it and than every child it has now.
      const mark = Math.max(target?.seq ?? 0, (this.q.childMark.get({ session: sessionId, parent: entryId }) as number | null) ?? 0);
      this.q.setLeaf.run({ id: sessionId, leaf: entryId, mark, now: this.#clock(), messages: head.pendingMessages });
      this.heads.delete(sessionId);
    });
    this.#moved(sessionId, entryId);
  }

  /**
   * Verifies every entry of the session against its chained hash (parents before children), naming each
   * entry whose stored fields no longer match. A session found changed becomes read-only in this store.
   */
  check(sessionId: string, options: CheckOptions = {}): SessionCheck {
    this.session(sessionId);
    const after = options.sinceLast ? ((this.q.checkedSeq.get(sessionId) as number | undefined) ?? 0) : 0;
    const total = options.onProgress ? (this.q.countRowsAfter.get(sessionId, after) as number) : 0;
    const verifier = new TreeVerifier();
    let newest = after;
    const rows = after > 0 ? this.q.hashRowsSince : this.q.hashRowsAfter;
    for (const row of rows.iterate(sessionId, after) as Iterable<HashedRow & { seq: number }>) {
      verifier.push(row);
      newest = row.seq;
      if (options.onProgress && verifier.count % CHECK_PROGRESS_EVERY === 0) options.onProgress(verifier.count, total);
    }
    // Rows hanging from entries before the mark are checked against those entries' stored hashes.
    const changed = verifier.finish((id) => this.hashOf(sessionId, id));
    if (changed.length === 0 && newest > after) this.q.setCheckedSeq.run(sessionId, newest);
    const known = this.integrity.known(sessionId);
    for (const id of changed) known.changed.add(id);
    return { sessionId, entries: verifier.count, ...integrityOf(changed), ...(after > 0 ? { sinceLast: true } : {}) };
  }

  /** Imports a whole session (ids, tree shape and leaf kept) in one transaction: all or nothing. */
  importSession(data: ImportedSession): SessionSummary {
    const summary = this.#write(() => {
      const now = this.#clock();
      const id = data.id ?? randomUUID();
      if (this.q.session.get(id)) throw new AmberError('conflict', `A conversation with id ${id} already exists; import it as a new conversation instead.`);
      this.q.insertSession.run({
        id,
        title: data.title ?? '',
        now: data.createdAt ?? now,
        cwd: data.cwd ?? null,
        parentSessionId: data.parent?.sessionId ?? null,
        parentToolCallId: data.parent?.toolCallId ?? null,
      });
      // The session row is written once, after the entries; each parent's stored fields come from memory.
      const rows = new Map<string, ParentRow>();
      let messages = 0;
      let preview: string | null = null;
      let title: string | null = null;
      let mark = 0;
      for (const entry of data.entries) {
        const { parentId } = entry;
        const stored = this.#insert(id, entry, parentId, parentId === null ? null : rows.get(parentId));
        rows.set(stored.entry.id, stored.row);
        mark = stored.seq;
        const written = stored.entry;
        if (written.type === 'message') {
          if (countsAsMessage(written.type, written.message.role)) messages++;
          // The session's preview is its first user message's text (an empty text leaves it to the next).
          if (preview === null && written.message.role === 'user' && stored.preview !== '') preview = stored.preview;
        }
        if (written.type === 'session_info' && written.name) title = written.name.slice(0, 200);
      }
      if (data.leafId !== null) this.row(id, data.leafId);
      this.q.importedSummary.run({ id, leaf: data.leafId, mark, now: this.#clock(), messages, preview, title });
      this.integrity.reset(id, data.leafId === null ? [] : [data.leafId]);
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
    const kept = this.heads.get(sessionId);
    if (kept) return kept;
    const session = this.session(sessionId);
    const at = this.derive(session);
    const leaf = at.leafId === null ? null : ((this.q.parentRow.get(sessionId, at.leafId) as ParentRow | undefined) ?? null);
    const markDepth = this.rows.pathMark(sessionId)?.depth ?? -1;
    const head: Head = { ...at, leaf, hasPreview: session.preview !== '', markDepth };
    this.heads.set(sessionId, head);
    return head;
  }

  /**
   * Moves the session's verified path mark down to the head's leaf once it is PATH_MARK_STRIDE entries below
   * the mark. Called inside an append's transaction, after the leaf's path was verified (or written here).
   */
  #markPath(sessionId: string, head: Head): void {
    if (head.leafId === null || !head.leaf || head.leaf.depth - head.markDepth < PATH_MARK_STRIDE) return;
    this.q.setPathMark.run({ session: sessionId, id: head.leafId, hash: head.leaf.hash, depth: head.leaf.depth });
    head.markDepth = head.leaf.depth;
  }

  /**
   * Inserts under the head's leaf and moves the head (in memory) to the new entry. The session's row is
   * written only when its preview or title changes or every ROW_STRIDE appends: in between, the entries
   * appended since it was written say where the leaf is (see SessionReader.derive).
   */
  #appendUnder(sessionId: string, head: Head, input: EntryInput): Entry {
    const now = this.#clock();
    const { entry, row, preview, seq } = this.#insert(sessionId, input, head.leafId, head.leaf, now);
    const isMessage = entry.type === 'message';
    // The session's preview is its first user message's text (an empty text leaves it empty).
    const firstUserText = isMessage && entry.message.role === 'user' && !head.hasPreview ? preview : null;
    const title = entry.type === 'session_info' && entry.name ? entry.name.slice(0, 200) : null;
    head.pending++;
    if (isMessage && countsAsMessage(entry.type, entry.message.role)) head.pendingMessages++;
    head.updatedAt = Math.max(head.updatedAt, now);
    if (firstUserText !== null || title !== null || head.pending >= ROW_STRIDE) {
      this.q.writeHead.run({ id: sessionId, leaf: entry.id, mark: seq, now, messages: head.pendingMessages, preview: firstUserText, title });
      head.pending = 0;
      head.pendingMessages = 0;
    }
    head.leafId = entry.id;
    head.leaf = row;
    head.hasPreview ||= firstUserText !== null && firstUserText !== '';
    return entry;
  }

  /**
   * Inserts one entry under `parentId`. `parent`: the parent's stored fields when the caller has them
   * (undefined: they are read). Returns the stored entry, with what the next entry under it needs.
   */
  #insert(sessionId: string, input: EntryInput, parentId: string | null, parent?: ParentRow | null, now = this.#clock()): StoredEntry & { seq: number } {
    const above = parentId === null ? null : (parent ?? (this.q.parentRow.get(sessionId, parentId) as ParentRow | undefined) ?? null);
    const stored = storedEntry(sessionId, externalizeImages(input, this.blobs), parentId, above, { newId: this.#newId, now });
    const { entry } = stored;
    this.blobs.refer(sessionId, imageHashes(entry));
    if (entry.type === 'compaction' && !this.#onPath(sessionId, parentId, entry.firstKeptEntryId)) {
      throw new AmberError('invalid_input', `Refused compaction ${entry.id}: the entry it keeps from, ${entry.firstKeptEntryId}, is not on its branch.`);
    }
    if (entry.type === 'label' && !this.q.parentRow.get(sessionId, entry.targetId)) {
      throw new AmberError('invalid_input', `Refused a label: its target ${entry.targetId} is not in conversation ${sessionId}.`);
    }
    try {
      return { ...stored, seq: Number(this.q.insertEntry.run(stored.params).lastInsertRowid) };
    } catch (e) {
      if (String(e).includes('UNIQUE')) throw new AmberError('conflict', `Entry id ${entry.id} is already used in conversation ${sessionId}.`);
      throw e;
    }
  }

  /** Whether `target` is `from` or one of its ancestors; walks only as far as it must. */
  #onPath(sessionId: string, from: string | null, target: string): boolean {
    if (from === null) return false;
    for (const row of this.q.walkUpIds.iterate({ session: sessionId, id: from }) as Iterable<{ id: string }>) {
      if (row.id === target) return true;
    }
    return false;
  }
}
