import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { z } from 'zod';
import {
  Entry,
  entryPreview,
  entryRole,
  type EntryInput,
  isAssistant,
  type Message,
  type ModelContext,
  type SessionIntegrity,
  type SessionSummary,
  type TranscriptPage,
  type TreeNode,
} from '../../shared/sessions/index.ts';
import { preparePrivateDatabase } from '../data-dir.ts';
import { AmberError } from '../errors.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { canonicalJson } from './canonical-json.ts';
import { entryHash, entryHashMatches, type HashedRow } from './entry-hash.ts';
import { ENTRY_HASHES_VERSION, MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
import { orderedId } from './ordered-id.ts';

type Db = Database.Database;

interface SessionRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  leaf_id: string | null;
  message_count: number;
  preview: string;
  cwd: string | null;
}

interface EntryRow {
  seq: number;
  id: string;
  parent_id: string | null;
  type: string;
  depth: number;
  model_ref: string | null;
  thinking_ref: string | null;
  payload: string;
  hash: string;
}

interface ParentRow {
  depth: number;
  model_ref: string | null;
  thinking_ref: string | null;
  hash: string;
}

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
}

/** What a store knows of a session's hashes: entries found changed, and leaves whose paths it verified. */
interface KnownIntegrity {
  /** Oldest first; a few are kept so that switching between branches does not walk them again. */
  leaves: Set<string>;
  changed: Set<string>;
}

const VERIFIED_LEAVES = 16;

function addLeaf(known: KnownIntegrity, leaf: string): void {
  known.leaves.delete(leaf);
  known.leaves.add(leaf);
  if (known.leaves.size > VERIFIED_LEAVES) known.leaves.delete(known.leaves.values().next().value!);
}

/**
 * What the last context walk of a session found, kept so that the next build (a run builds one every turn)
 * walks only the entries appended below `leaf` since. Trusted only while no other connection has committed.
 */
interface ContextWalk {
  leaf: string;
  /** Newer than the compaction (or all, without one), nearest first. */
  after: Entry[];
  /** From the compaction's first kept entry up to it, nearest first. */
  kept: Entry[];
  compaction: Extract<Entry, { type: 'compaction' }> | null;
  /** Entries on the walked path found changed. */
  changed: string[];
}

/** Sessions whose last context walk is kept (a few open conversations). */
const KEPT_WALKS = 16;

/** The result of `SessionStore.check`: every entry of the session verified against its chained hash. */
export interface SessionCheck extends SessionIntegrity {
  sessionId: string;
  entries: number;
}

export interface SessionStoreOptions {
  /** Milliseconds a writer waits for another process's transaction before giving up. */
  busyTimeoutMs?: number;
  clock?: () => number;
  newId?: () => string;
  /**
   * SQLite's `synchronous` for this connection. NORMAL (the default) loses no commit when the process
   * dies; FULL also fsyncs the WAL on every commit, for when power loss matters.
   */
  synchronous?: 'NORMAL' | 'FULL';
}

export interface ListOptions {
  query?: string;
  limit?: number;
  offset?: number;
}

export interface ImportedSession {
  id?: string;
  title?: string;
  cwd?: string | null;
  createdAt?: number;
  entries: Entry[];
  leafId: string | null;
}

function toSummary(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    leafId: row.leaf_id,
    messageCount: row.message_count,
    preview: row.preview,
    cwd: row.cwd,
  };
}

/** Parsed context entries kept in memory (about the context of a few long sessions). */
const PARSED_CONTEXT_LIMIT = 50_000;

function integrityOf(changed: Iterable<string>): SessionIntegrity {
  const ids = [...new Set(changed)];
  return { ok: ids.length === 0, changed: ids };
}

/**
 * Verifies a path fed nearest first (leaf upward): each row's hash is checked once its parent's stored
 * hash is known; `finish` checks the topmost row against the hash of the parent above the walk.
 */
class PathVerifier {
  readonly changed: string[] = [];
  #pending: HashedRow | null = null;
  readonly #matched: VerifiedRows | undefined;

  /** `matched` remembers rows that matched, so that the same bytes under the same parent hash are not hashed again. */
  constructor(matched?: VerifiedRows) {
    this.#matched = matched;
  }

  push(row: HashedRow): void {
    if (this.#pending && !this.#matches(row.hash, this.#pending)) this.changed.push(this.#pending.id);
    this.#pending = row;
  }

  finish(parentHash: (id: string) => string): string[] {
    const top = this.#pending;
    if (top && !this.#matches(top.parent_id === null ? '' : parentHash(top.parent_id), top)) this.changed.push(top.id);
    this.#pending = null;
    return this.changed;
  }

  // The check is a function of the row's fields and its parent's hash only: a row seen matching with exactly
  // these (id, parent id, type, payload bytes, hash, parent hash) matches again.
  #matches(parentHash: string, row: HashedRow): boolean {
    const seen = this.#matched?.get(row.id);
    if (seen && seen.parentHash === parentHash && seen.hash === row.hash && seen.payload === row.payload && seen.parentId === row.parent_id && seen.type === row.type) return true;
    const ok = entryHashMatches(parentHash, row);
    if (ok && this.#matched) {
      if (this.#matched.size >= PARSED_CONTEXT_LIMIT) this.#matched.clear();
      this.#matched.set(row.id, { parentHash, hash: row.hash, payload: row.payload, parentId: row.parent_id, type: row.type });
    }
    return ok;
  }
}

/** A stored compaction's first kept entry; null when its payload no longer says (it was changed). */
function keptFrom(payload: string): string | null {
  try {
    const kept = (JSON.parse(payload) as { firstKeptEntryId?: unknown }).firstKeptEntryId;
    return typeof kept === 'string' ? kept : null;
  } catch {
    return null;
  }
}

/** Rows whose hash was found matching, by id, with every field the check covered. */
type VerifiedRows = Map<string, { parentHash: string; hash: string; payload: string; parentId: string | null; type: string }>;

function describe(error: z.ZodError): string {
  return z.prettifyError(error).replace(/\n+/g, '; ');
}

/** Messages a failed or aborted reply leaves in the tree are never sent to a model again. */
function reachesModel(message: Message): boolean {
  if (!isAssistant(message)) return true;
  const stop = message.stopReason;
  return stop !== 'error' && stop !== 'aborted';
}

/**
 * Sessions as trees of entries in one SQLite file. Every write is one transaction; payloads are
 * validated on write and on read. Safe to share a file between processes (WAL, busy timeout, leaf
 * read and moved inside an IMMEDIATE transaction).
 */
/** Where a session's leaf is now. */
export interface LeafMove {
  sessionId: string;
  leafId: string | null;
}

/** A listener that throws must not undo or fail the write it heard of: it is logged. */
const listenerFailed = (e: unknown): void => console.error('A session store listener failed', e);

export class SessionStore {
  readonly #db: Db;
  readonly #clock: () => number;
  readonly #newId: () => string;
  readonly #q: ReturnType<typeof prepare>;
  /** One transaction wrapper, made once: better-sqlite3's wrappers are costly to create per call. */
  readonly #tx: Database.Transaction<(fn: () => unknown) => unknown>;
  /** Per session: the entries found changed, and the leaves whose context paths were verified. */
  readonly #integrity = new Map<string, KnownIntegrity>();
  /**
   * Context entries as parsed, by id, with the exact payload each was parsed from. A run rebuilds its
   * context every turn, and parsing every payload of the path again was most of that cost; the rows a walk
   * reads have their hashes checked, and a payload that differs in any byte is parsed anew.
   * Callers must treat context entries as read-only: they are shared between builds.
   */
  readonly #parsedContext = new Map<string, { payload: string; entry: Entry }>();
  /** Context rows whose hash matched, with the fields it covered (a match is not computed twice for the same bytes). */
  readonly #verifiedContext: VerifiedRows = new Map();
  /** Per session, what the next append builds on; valid while `#dataVersion` is the file's (see Head). */
  readonly #heads = new Map<string, Head>();
  /** Per session, its last context walk; valid while `#dataVersion` is the file's (see ContextWalk). */
  readonly #walks = new Map<string, ContextWalk>();
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
    this.#q = prepare(db);
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
    this.#walks.clear();
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
    this.#walks.delete(sessionId);
    this.#integrity.delete(sessionId);
    this.#deleted.fire({ sessionId });
  }

  // ── entries ─────────────────────────────────────────────────────────────

  /** Appends under the session's leaf and moves the leaf to the new entry. */
  append(sessionId: string, input: EntryInput): Entry {
    const entry = this.#write(() => {
      const head = this.#head(sessionId);
      const known = this.#writable(sessionId, head.leafId);
      const appended = this.#appendUnder(sessionId, head, input);
      addLeaf(known, appended.id);
      return appended;
    });
    this.#moved(sessionId, entry.id);
    return entry;
  }

  /** Appends several entries in order, each under the previous one, in one transaction. */
  appendMany(sessionId: string, inputs: EntryInput[]): Entry[] {
    const out = this.#write(() => {
      const head = this.#head(sessionId);
      const known = this.#writable(sessionId, head.leafId);
      const entries = inputs.map((input) => this.#appendUnder(sessionId, head, input));
      if (head.leafId !== null) addLeaf(known, head.leafId);
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
    return this.#parse(this.#row(sessionId, entryId));
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
    const labels = new Map<string, string | null>();
    for (const row of this.#q.labels.iterate(sessionId) as Iterable<{ target_id: string; payload: string }>) {
      const label = (JSON.parse(row.payload) as { label?: unknown }).label;
      labels.set(row.target_id, typeof label === 'string' && label ? label : null);
    }
    const nodes: TreeNode[] = [];
    for (const r of this.#q.treeRows.iterate(sessionId) as Iterable<{ id: string; parent_id: string | null; type: string; role: string | null; preview: string }>) {
      nodes.push({ id: r.id, parentId: r.parent_id, type: r.type, role: r.role, preview: r.preview, label: labels.get(r.id) ?? null });
    }
    return nodes;
  }

  /** Every entry of a session in creation order (parents before children); for export. */
  *allEntries(sessionId: string): Generator<Entry> {
    this.#session(sessionId);
    for (const row of this.#q.allEntries.iterate(sessionId) as Iterable<EntryRow>) yield this.#parse(row);
  }

  /** Entries from the root to `leafId` (default: the session's leaf). Walks the whole path: prefer page/context. */
  path(sessionId: string, leafId?: string | null): Entry[] {
    const start = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (start === null) return [];
    return (this.#q.walkUp.all({ session: sessionId, id: start, limit: -1 }) as EntryRow[]).reverse().map((r) => this.#parse(r));
  }

  /** A page of the current branch, from `before` (exclusive; default: from the leaf) up toward the root. */
  page(sessionId: string, options: { before?: string | null; limit?: number } = {}): TranscriptPage {
    const leafId = this.leaf(sessionId);
    const limit = Math.max(1, Math.min(options.limit ?? 100, 1000));
    // The first page is what a window shows on opening a session: it learns whether the session is read-only.
    const known = options.before ? this.#known(sessionId) : this.#verified(sessionId, leafId);
    let start: string | null = leafId;
    if (options.before) start = this.#row(sessionId, options.before).parent_id;
    if (start === null) return { entries: [], before: null, leafId, integrity: integrityOf(known.changed) };
    const rows = this.#q.walkUp.all({ session: sessionId, id: start, limit: limit + 1 }) as EntryRow[];
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const verifier = new PathVerifier();
    for (const row of rows) verifier.push(row);
    // With more rows than the page, the extra row only lends its hash to the page's oldest entry.
    const changed = more ? verifier.changed : verifier.finish((id) => this.#hashOf(sessionId, id));
    for (const id of changed) known.changed.add(id);
    const entries = pageRows.reverse().map((r) => this.#parse(r));
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
    const empty: ModelContext = { leafId: leaf, entries: [], messages: [], model: null, thinkingLevel: null, integrity: integrityOf([]) };
    if (leaf === null) return empty;
    this.#row(sessionId, leaf);
    const verifier = new PathVerifier(this.#verifiedContext);
    const last = this.#walks.get(sessionId);

    let after: Entry[] = []; // newer than the compaction, nearest first
    let kept: Entry[] = []; // from the compaction's first kept entry up to it, nearest first
    let compaction: Extract<Entry, { type: 'compaction' }> | null = null;
    let reachedFirstKept = false;
    let earlier: ContextWalk | null = null;
    let leafRefs: { model_ref: string | null; thinking_ref: string | null } | null = null;
    for (const row of this.#q.walkUp.iterate({ session: sessionId, id: leaf, limit: -1 }) as Iterable<EntryRow>) {
      leafRefs ??= row;
      verifier.push(row);
      if (compaction === null && row.id === last?.leaf) {
        // Its row lent its stored hash to the entry below it; it and everything above were verified then.
        earlier = last;
        break;
      }
      const entry = this.#parseContextEntry(row);
      if (compaction === null) {
        if (entry.type === 'compaction') compaction = entry;
        else after.push(entry);
      } else if (entry.type !== 'compaction') {
        kept.push(entry);
      }
      if (compaction !== null && entry.id === compaction.firstKeptEntryId) {
        reachedFirstKept = true;
        break; // ends the walk: nothing above the cut is read
      }
    }
    if (earlier) {
      after = [...after, ...earlier.after];
      kept = earlier.kept;
      compaction = earlier.compaction;
    } else if (compaction !== null && !reachedFirstKept) {
      throw new AmberError('internal', `Compaction ${compaction.id} keeps entry ${compaction.firstKeptEntryId}, which is not on its path.`);
    }
    const integrity = integrityOf(earlier ? [...verifier.changed, ...earlier.changed] : verifier.finish((id) => this.#hashOf(sessionId, id)));
    this.#remember(sessionId, leaf, integrity.changed);
    this.#walks.delete(sessionId);
    if (this.#walks.size >= KEPT_WALKS) this.#walks.delete(this.#walks.keys().next().value!);
    this.#walks.set(sessionId, { leaf, after, kept, compaction, changed: integrity.changed });
    const modelEntry = leafRefs?.model_ref ? this.entry(sessionId, leafRefs.model_ref) : null;
    const thinkingEntry = leafRefs?.thinking_ref ? this.entry(sessionId, leafRefs.thinking_ref) : null;
    const model = modelEntry?.type === 'model_change' ? { provider: modelEntry.provider, modelId: modelEntry.modelId } : null;
    const thinkingLevel = thinkingEntry?.type === 'thinking_level_change' ? thinkingEntry.thinkingLevel : null;

    const entries: Entry[] = compaction !== null ? [compaction] : [];
    for (const entry of [...kept.toReversed(), ...after.toReversed()]) {
      if (entry.type === 'message' && !reachesModel(entry.message)) continue;
      if (entry.type === 'message' || entry.type === 'custom_message' || entry.type === 'branch_summary') entries.push(entry);
    }
    const messages = entries.map((e): Message => {
      switch (e.type) {
        case 'message':
          return e.message;
        case 'compaction':
          return { role: 'user', content: `The conversation so far, summarised:\n\n${e.summary}` };
        case 'branch_summary':
          return { role: 'user', content: `A branch explored earlier, summarised:\n\n${e.summary}` };
        case 'custom_message':
          return { role: 'user', content: e.content };
        default:
          throw new AmberError('internal', `Entry type ${e.type} does not reach the model.`);
      }
    });
    return { leafId: leaf, entries, messages, model, thinkingLevel, integrity };
  }

  /**
   * Verifies every entry of the session against its chained hash (parents before children), naming each
   * entry whose stored fields no longer match. A session found changed becomes read-only in this store.
   */
  check(sessionId: string): SessionCheck {
    this.#session(sessionId);
    const hashes = new Map<string, string>();
    const changed: string[] = [];
    const later: HashedRow[] = []; // rows stored before their parent (never written so by Amber)
    for (const row of this.#q.hashRows.iterate(sessionId) as Iterable<HashedRow>) {
      hashes.set(row.id, row.hash);
      if (row.parent_id !== null && !hashes.has(row.parent_id)) later.push(row);
      else if (!entryHashMatches(row.parent_id === null ? '' : hashes.get(row.parent_id)!, row)) changed.push(row.id);
    }
    for (const row of later) {
      if (!entryHashMatches(hashes.get(row.parent_id!) ?? '', row)) changed.push(row.id);
    }
    const known = this.#known(sessionId);
    for (const id of changed) known.changed.add(id);
    return { sessionId, entries: hashes.size, ...integrityOf(changed) };
  }

  /** Imports a whole session (ids, tree shape and leaf kept) in one transaction: all or nothing. */
  importSession(data: ImportedSession): SessionSummary {
    const summary = this.#write(() => {
      const now = this.#clock();
      const id = data.id ?? randomUUID();
      if (this.#q.session.get(id)) throw new AmberError('conflict', `A session with id ${id} already exists; import it as a new session instead.`);
      this.#q.insertSession.run({ id, title: data.title ?? '', now: data.createdAt ?? now, cwd: data.cwd ?? null });
      let hasPreview = false;
      for (const entry of data.entries) {
        const { id: entryId, parentId, timestamp, ...rest } = entry;
        hasPreview = this.#insert(id, hasPreview, { ...rest, id: entryId, timestamp } as EntryInput, parentId).hasPreview;
      }
      if (data.leafId !== null) this.#row(id, data.leafId);
      this.#q.setLeaf.run({ id, leaf: data.leafId, now: this.#clock() });
      this.#integrity.set(id, { leaves: new Set(data.leafId === null ? [] : [data.leafId]), changed: new Set() });
      return this.get(id);
    });
    this.#created.fire(summary);
    return summary;
  }

  // ── settings and plugin state (small tables that live beside the sessions) ──

  getSetting(key: string): string | null {
    return (this.#q.getSetting.get(key) as { value: string } | undefined)?.value ?? null;
  }

  setSetting(key: string, value: string | null): void {
    if (value === null) this.#q.deleteSetting.run(key);
    else this.#q.setSetting.run(key, value);
  }

  pluginStates(): Map<string, boolean> {
    const rows = this.#q.pluginStates.all() as { plugin_id: string; enabled: number }[];
    return new Map(rows.map((r) => [r.plugin_id, r.enabled === 1]));
  }

  setPluginState(pluginId: string, enabled: boolean): void {
    this.#q.setPluginState.run(pluginId, enabled ? 1 : 0, this.#clock());
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
    const head: Head = { leafId: session.leaf_id, leaf, hasPreview: session.preview !== '' };
    this.#heads.set(sessionId, head);
    return head;
  }

  /** Inserts under the head's leaf and moves the head (in memory; the row was moved by the insert) to the new entry. */
  #appendUnder(sessionId: string, head: Head, input: EntryInput): Entry {
    const written = this.#insert(sessionId, head.hasPreview, input, head.leafId, head.leaf);
    head.leafId = written.entry.id;
    head.leaf = written.row;
    head.hasPreview = written.hasPreview;
    return written.entry;
  }

  /**
   * Inserts one entry under `parentId` and moves the session's leaf to it. `parent`: the parent's stored
   * fields when the caller has them (else they are read). Returns what the next entry under it needs.
   */
  #insert(sessionId: string, hasPreview: boolean, input: EntryInput, parentId: string | null, parent?: ParentRow | null): { entry: Entry; row: ParentRow; hasPreview: boolean } {
    const now = this.#clock();
    const candidate = { ...input, id: input.id ?? this.#newId(), parentId, timestamp: input.timestamp ?? new Date(now).toISOString() };
    const parsed = Entry.safeParse(candidate);
    if (!parsed.success) {
      const type = (input as { type?: unknown }).type;
      throw new AmberError('invalid_input', `Refused a ${typeof type === 'string' ? `'${type}'` : 'typeless'} entry: ${describe(parsed.error)}`);
    }
    const entry = parsed.data;
    let above: ParentRow = { depth: -1, model_ref: null, thinking_ref: null, hash: '' };
    if (parentId !== null) {
      const row = parent ?? (this.#q.parentRow.get(sessionId, parentId) as ParentRow | undefined);
      if (!row) throw new AmberError('invalid_input', `Refused entry ${entry.id}: its parent ${parentId} is not in session ${sessionId}.`);
      above = row;
    }
    if (entry.type === 'compaction' && !this.#onPath(sessionId, parentId, entry.firstKeptEntryId)) {
      throw new AmberError('invalid_input', `Refused compaction ${entry.id}: the entry it keeps from, ${entry.firstKeptEntryId}, is not on its branch.`);
    }
    if (entry.type === 'label' && !this.#q.parentRow.get(sessionId, entry.targetId)) {
      throw new AmberError('invalid_input', `Refused a label: its target ${entry.targetId} is not in session ${sessionId}.`);
    }
    const preview = entryPreview(entry);
    // Stored canonical, so that verifying it hashes the stored text as it is.
    const payload = canonicalJson(entry);
    const row: ParentRow = {
      depth: above.depth + 1,
      model_ref: entry.type === 'model_change' ? entry.id : above.model_ref,
      thinking_ref: entry.type === 'thinking_level_change' ? entry.id : above.thinking_ref,
      hash: entryHash(above.hash, entry.id, parentId, entry.type, payload),
    };
    try {
      this.#q.insertEntry.run({
        session: sessionId,
        id: entry.id,
        parent: parentId,
        type: entry.type,
        role: entryRole(entry),
        preview,
        target: entry.type === 'label' ? entry.targetId : null,
        depth: row.depth,
        modelRef: row.model_ref,
        thinkingRef: row.thinking_ref,
        payload,
        hash: row.hash,
        now,
      });
    } catch (e) {
      if (String(e).includes('UNIQUE')) throw new AmberError('conflict', `Entry id ${entry.id} is already used in session ${sessionId}.`);
      throw e;
    }
    const isMessage = entry.type === 'message';
    // The session's preview is its first user message's text (an empty text leaves it empty).
    const firstUserText = isMessage && entry.message.role === 'user' && !hasPreview ? preview : null;
    const title = entry.type === 'session_info' && entry.name ? entry.name.slice(0, 200) : null;
    this.#q.afterAppend.run({ id: sessionId, leaf: entry.id, now, messages: isMessage ? 1 : 0, preview: firstUserText, title });
    return { entry, row, hasPreview: hasPreview || (firstUserText !== null && firstUserText !== '') };
  }

  /** Whether `target` is `from` or one of its ancestors; walks only as far as it must. */
  #onPath(sessionId: string, from: string | null, target: string): boolean {
    if (from === null) return false;
    for (const row of this.#q.walkUpIds.iterate({ session: sessionId, id: from }) as Iterable<{ id: string }>) {
      if (row.id === target) return true;
    }
    return false;
  }

  /** The store's record for a session, made empty (nothing verified yet) on first use. */
  #known(sessionId: string): KnownIntegrity {
    let known = this.#integrity.get(sessionId);
    if (!known) this.#integrity.set(sessionId, (known = { leaves: new Set(), changed: new Set() }));
    return known;
  }

  /** Records what a walk from `leaf` found, so an append under that leaf need not walk it again. */
  #remember(sessionId: string, leaf: string, changed: readonly string[]): void {
    const known = this.#known(sessionId);
    for (const id of changed) known.changed.add(id);
    addLeaf(known, leaf);
  }

  /** The store's record for a session, with the path from `leaf` to its context's cut verified. */
  #verified(sessionId: string, leaf: string | null): KnownIntegrity {
    const known = this.#known(sessionId);
    if (leaf === null || (known.leaves.has(leaf) && known.changed.size === 0)) return known;
    const verifier = new PathVerifier();
    let firstKept: string | null = null;
    for (const row of this.#q.walkUp.iterate({ session: sessionId, id: leaf, limit: -1 }) as Iterable<EntryRow>) {
      verifier.push(row);
      if (firstKept === null && row.type === 'compaction') firstKept = keptFrom(row.payload);
      if (firstKept !== null && row.id === firstKept) break;
    }
    for (const id of verifier.finish((parentId) => this.#hashOf(sessionId, parentId))) known.changed.add(id);
    addLeaf(known, leaf);
    return known;
  }

  /** Refuses writes to a session with entries changed outside Amber; verifies its leaf's path first if need be. */
  #writable(sessionId: string, leafId: string | null): KnownIntegrity {
    const known = this.#verified(sessionId, leafId);
    if (known.changed.size > 0) {
      const ids = [...known.changed];
      throw new AmberError(
        'denied',
        `Session ${sessionId} is read-only: ${ids.length === 1 ? `entry ${ids[0]} was` : `entries ${ids.join(', ')} were`} changed outside Amber. Start a new session to continue, or run \`amber sessions check ${sessionId}\` for details.`,
      );
    }
    return known;
  }

  #hashOf(sessionId: string, entryId: string): string {
    return (this.#q.hashOf.get(sessionId, entryId) as { hash: string } | undefined)?.hash ?? '';
  }

  #parse(row: EntryRow): Entry {
    let value: unknown;
    try {
      value = JSON.parse(row.payload);
    } catch {
      throw new AmberError('internal', `Stored entry ${row.id} is not valid JSON: it was changed outside Amber (\`amber sessions check\` names every changed entry).`);
    }
    const parsed = Entry.safeParse(value);
    if (!parsed.success) throw new AmberError('internal', `Stored entry ${row.id} does not match its schema: ${describe(parsed.error)}`);
    return parsed.data;
  }

  #parseContextEntry(row: EntryRow): Entry {
    const known = this.#parsedContext.get(row.id);
    if (known && known.payload === row.payload) return known.entry;
    const entry = this.#parse(row);
    if (this.#parsedContext.size >= PARSED_CONTEXT_LIMIT) this.#parsedContext.clear();
    this.#parsedContext.set(row.id, { payload: row.payload, entry });
    return entry;
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

function migrate(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new AmberError('unavailable', `This data was written by a newer Amber (schema ${version}; this one knows ${SCHEMA_VERSION}). Update Amber to open it.`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      if (v + 1 === ENTRY_HASHES_VERSION) hashExistingEntries(db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}

/**
 * Computes the chained hash of every entry written before hashes existed, in tree order (by depth, so
 * parents first), rewriting each payload as canonical JSON (the same value, keys sorted) on the way.
 */
function hashExistingEntries(db: Db): void {
  const sessions = db.prepare(`SELECT id FROM sessions`).pluck().all() as string[];
  const order = db.prepare(`SELECT seq, id, parent_id, type FROM entries WHERE session_id = ? ORDER BY depth, seq`);
  const payloadOf = db.prepare(`SELECT payload FROM entries WHERE seq = ?`).pluck();
  const update = db.prepare(`UPDATE entries SET payload = ?, hash = ? WHERE seq = ?`);
  for (const sessionId of sessions) {
    const hashes = new Map<string, string>();
    for (const row of order.all(sessionId) as { seq: number; id: string; parent_id: string | null; type: string }[]) {
      const payload = canonicalJson(JSON.parse(payloadOf.get(row.seq) as string));
      const hash = entryHash(row.parent_id === null ? '' : (hashes.get(row.parent_id) ?? ''), row.id, row.parent_id, row.type, payload);
      update.run(payload, hash, row.seq);
      hashes.set(row.id, hash);
    }
  }
}

const ENTRY_COLS = 'seq, id, parent_id, type, depth, model_ref, thinking_ref, payload, hash';

function prepare(db: Db) {
  return {
    insertSession: db.prepare(`INSERT INTO sessions (id, title, created_at, updated_at, cwd) VALUES (@id, @title, @now, @now, @cwd)`),
    session: db.prepare(`SELECT * FROM sessions WHERE id = ?`),
    listSessions: db.prepare(`SELECT * FROM sessions ORDER BY updated_at DESC, id LIMIT @limit OFFSET @offset`),
    searchSessions: db.prepare(
      `SELECT * FROM sessions WHERE title LIKE @pattern ESCAPE '\\' OR preview LIKE @pattern ESCAPE '\\'
       OR id IN (SELECT session_id FROM entries WHERE type = 'message' AND preview LIKE @pattern ESCAPE '\\')
       ORDER BY updated_at DESC, id LIMIT @limit OFFSET @offset`,
    ),
    countSessions: db.prepare(`SELECT count(*) AS n FROM sessions`),
    renameSession: db.prepare(`UPDATE sessions SET title = @title, updated_at = @now WHERE id = @id`),
    setSessionCwd: db.prepare(`UPDATE sessions SET cwd = @cwd WHERE id = @id`),
    deleteEntries: db.prepare(`DELETE FROM entries WHERE session_id = ?`),
    deleteSession: db.prepare(`DELETE FROM sessions WHERE id = ?`),
    setLeaf: db.prepare(`UPDATE sessions SET leaf_id = @leaf, updated_at = @now WHERE id = @id`),
    afterAppend: db.prepare(
      `UPDATE sessions SET leaf_id = @leaf, updated_at = @now, message_count = message_count + @messages,
         preview = coalesce(@preview, preview), title = coalesce(@title, title) WHERE id = @id`,
    ),
    insertEntry: db.prepare(
      `INSERT INTO entries (session_id, id, parent_id, type, role, preview, target_id, depth, model_ref, thinking_ref, payload, hash, created_at)
       VALUES (@session, @id, @parent, @type, @role, @preview, @target, @depth, @modelRef, @thinkingRef, @payload, @hash, @now)`,
    ),
    entry: db.prepare(`SELECT ${ENTRY_COLS} FROM entries WHERE session_id = ? AND id = ?`),
    parentRow: db.prepare(`SELECT depth, model_ref, thinking_ref, hash FROM entries WHERE session_id = ? AND id = ?`),
    hashOf: db.prepare(`SELECT hash FROM entries WHERE session_id = ? AND id = ?`),
    hashRows: db.prepare(`SELECT id, parent_id, type, payload, hash FROM entries WHERE session_id = ? ORDER BY seq`),
    roots: db.prepare(`SELECT id FROM entries WHERE session_id = ? AND parent_id IS NULL ORDER BY seq`),
    children: db.prepare(`SELECT id FROM entries WHERE session_id = ? AND parent_id = ? ORDER BY seq`),
    newestChild: db.prepare(`SELECT id FROM entries WHERE session_id = ? AND parent_id = ? ORDER BY seq DESC LIMIT 1`),
    labels: db.prepare(`SELECT target_id, payload FROM entries WHERE session_id = ? AND type = 'label' ORDER BY seq`),
    allEntries: db.prepare(`SELECT ${ENTRY_COLS} FROM entries WHERE session_id = ? ORDER BY seq`),
    treeRows: db.prepare(`SELECT id, parent_id, type, role, preview FROM entries WHERE session_id = ? ORDER BY seq`),
    // From an entry up toward the root, nearest first; LIMIT -1 walks the whole path.
    walkUp: db.prepare(
      `WITH RECURSIVE up(seq, id, parent_id, type, depth, model_ref, thinking_ref, payload, hash) AS (
         SELECT ${ENTRY_COLS} FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT e.seq, e.id, e.parent_id, e.type, e.depth, e.model_ref, e.thinking_ref, e.payload, e.hash FROM entries e JOIN up ON e.session_id = @session AND e.id = up.parent_id
       ) SELECT * FROM up LIMIT @limit`,
    ),
    walkUpIds: db.prepare(
      `WITH RECURSIVE up(id, parent_id) AS (
         SELECT id, parent_id FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT e.id, e.parent_id FROM entries e JOIN up ON e.session_id = @session AND e.id = up.parent_id
       ) SELECT id FROM up`,
    ),
    // Changes when another connection commits (never for this one's own commits).
    dataVersion: db.prepare(`PRAGMA data_version`).pluck(),
    getSetting: db.prepare(`SELECT value FROM settings WHERE key = ?`),
    setSetting: db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`),
    deleteSetting: db.prepare(`DELETE FROM settings WHERE key = ?`),
    pluginStates: db.prepare(`SELECT plugin_id, enabled FROM plugin_states`),
    setPluginState: db.prepare(
      `INSERT INTO plugin_states (plugin_id, enabled, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(plugin_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    ),
  };
}
