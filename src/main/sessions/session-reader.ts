import { countsAsMessage, type Entry, type ModelContext, type SessionSummary, type TranscriptPage, type TreeNode } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import { ChainVerifier, integrityOf, type PathMark } from './chain-verifier.ts';
import { type BranchState, branchStateOf, ContextBuilder, type ContextRows } from './context-builder.ts';
import { type EntryRow, type ParentRow, parseEntryRow } from './entry-row.ts';
import { IntegrityTracker } from './integrity-tracker.ts';
import type { SessionStatements } from './session-statements.ts';
import { type Head, type ListOptions, type SessionRow, toSummary } from './session-store-types.ts';
import { type TreeBranchPage, type TreeOverviewPage, TreeReader } from './tree-reader.ts';

/**
 * The reading half of the session store: sessions, entries, branches, transcript and tree pages and the
 * model's context, over the store's prepared statements, with the caches reads keep (parsed context entries,
 * verified paths, each session's last walk, what the next append builds on). SessionStore adds the writes.
 */
export class SessionReader {
  protected readonly q: SessionStatements;
  /** What reaches the model, with the parsed entries and walks it keeps between builds. */
  protected readonly contexts = new ContextBuilder();
  /** The rows a context build reads, through this store's statements. */
  protected readonly rows: ContextRows = {
    walkUp: (sessionId, id) => this.q.walkUp.iterate({ session: sessionId, id, limit: -1 }) as Iterable<EntryRow>,
    hashOf: (sessionId, id) => this.hashOf(sessionId, id),
    entry: (sessionId, id) => this.entry(sessionId, id),
    pathMark: (sessionId) => (this.q.pathMark.get(sessionId) as PathMark | undefined) ?? null,
  };
  /** Per session: the entries found changed, and the leaves whose context paths were verified. */
  protected readonly integrity = new IntegrityTracker(this.rows);
  protected readonly trees: TreeReader;
  /** Per session, what the next append builds on; valid while `#dataVersion` is the file's (see Head). */
  protected readonly heads = new Map<string, Head>();
  /** PRAGMA data_version when the caches that other connections can invalidate were last checked. */
  #dataVersion = -1;

  protected constructor(q: SessionStatements) {
    this.q = q;
    this.trees = new TreeReader(q);
  }

  /**
   * Where a session's head is: its row's leaf followed down the entries appended since the row was written
   * (appends write the row only now and then). Kept from this store's own writes while no other connection
   * has committed.
   */
  protected headOf(row: SessionRow & { behind?: number }): Pick<Head, 'leafId' | 'pending' | 'pendingMessages' | 'updatedAt'> {
    this.syncDataVersion();
    return this.#headAfterSync(row);
  }

  /** headOf once the kept heads are known current (a list checks PRAGMA data_version once, not per row). */
  #headAfterSync(row: SessionRow & { behind?: number }): Pick<Head, 'leafId' | 'pending' | 'pendingMessages' | 'updatedAt'> {
    const kept = this.heads.get(row.id);
    if (kept) return kept;
    // A listed row says whether anything was appended below its leaf since it was written.
    if (row.behind === 0) return { leafId: row.leaf_id, pending: 0, pendingMessages: 0, updatedAt: row.updated_at };
    return this.derive(row);
  }

  /** The head as the file says: each step is the newest child above the row's mark (one index probe). */
  protected derive(row: SessionRow): Pick<Head, 'leafId' | 'pending' | 'pendingMessages' | 'updatedAt'> {
    const head = { leafId: row.leaf_id, pending: 0, pendingMessages: 0, updatedAt: row.updated_at };
    for (;;) {
      const next = this.q.newerChild.get({ session: row.id, parent: head.leafId, mark: row.leaf_mark }) as
        | { id: string; type: string; role: string | null; created_at: number }
        | undefined;
      if (!next) return head;
      head.leafId = next.id;
      head.pending++;
      if (countsAsMessage(next.type, next.role)) head.pendingMessages++;
      head.updatedAt = Math.max(head.updatedAt, next.created_at);
    }
  }

  protected summaryOf(row: SessionRow & { behind?: number }, synced = false): SessionSummary {
    const head = synced ? this.#headAfterSync(row) : this.headOf(row);
    return {
      ...toSummary(row),
      leafId: head.leafId,
      updatedAt: Math.max(row.updated_at, head.updatedAt),
      messageCount: row.message_count + head.pendingMessages,
    };
  }

  get(sessionId: string): SessionSummary {
    return this.summaryOf(this.session(sessionId));
  }

  list(options: ListOptions = {}): SessionSummary[] {
    const limit = Math.max(1, Math.min(options.limit ?? 1000, 10_000));
    const offset = Math.max(0, options.offset ?? 0);
    const query = options.query?.trim();
    const cwd = options.cwd ?? null;
    const pattern = query ? `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '';
    const rows = query
      ? (this.q.searchSessions.all({ pattern, limit, offset, cwd }) as (SessionRow & { behind: number })[])
      : (this.q.listSessions.all({ limit, offset, cwd }) as (SessionRow & { behind: number })[]);
    // The rows' order is by the time each row was last written; the page is ordered by the derived time.
    this.syncDataVersion();
    const summaries = rows.map((row) => this.summaryOf(row, true)).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (!query) return summaries;
    // A search says where it matched: the words around the match in the newest message that holds it.
    return summaries.map((s) => {
      const hit = this.q.matchPreview.get({ id: s.id, pattern }) as { preview: string } | undefined;
      return hit ? { ...s, match: matchSnippet(hit.preview, query) } : s;
    });
  }

  count(): number {
    return (this.q.countSessions.get() as { n: number }).n;
  }

  leaf(sessionId: string): string | null {
    return this.headOf(this.session(sessionId)).leafId;
  }

  entry(sessionId: string, entryId: string): Entry {
    return parseEntryRow(this.row(sessionId, entryId));
  }

  children(sessionId: string, entryId: string | null): string[] {
    this.session(sessionId);
    const rows = (entryId === null ? this.q.roots.all(sessionId) : this.q.children.all(sessionId, entryId)) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** The entry's siblings (itself included) in creation order, and its position among them. */
  siblings(sessionId: string, entryId: string): { ids: string[]; index: number } {
    const row = this.row(sessionId, entryId);
    const ids = this.children(sessionId, row.parent_id);
    return { ids, index: ids.indexOf(entryId) };
  }

  /** The newest leaf below `entryId`, following the most recent child at each step (for sibling switching). */
  newestLeafUnder(sessionId: string, entryId: string): string {
    this.row(sessionId, entryId);
    let current = entryId;
    for (;;) {
      const next = this.q.newestChild.get(sessionId, current) as { id: string } | undefined;
      if (!next) return current;
      current = next.id;
    }
  }

  /** The whole tree, compactly, in creation order; labels resolved (the newest label on a target wins). */
  tree(sessionId: string): TreeNode[] {
    this.session(sessionId);
    return this.trees.tree(sessionId);
  }

  /**
   * The nearest custom entry of `customType` from `fromId` up to the root (its id and parent), or null: ids
   * and types only are walked, custom entries' payloads read, and the walk stops at the first match.
   */
  newestCustomOnPath(sessionId: string, customType: string, fromId: string): { id: string; parentId: string | null } | null {
    const row = this.q.newestCustomUp.get({ session: sessionId, id: fromId, customType }) as { id: string; parent_id: string | null } | undefined;
    return row ? { id: row.id, parentId: row.parent_id } : null;
  }

  /**
   * A page of the tree overview: the branch from `before` (exclusive; default: from the leaf) up toward the
   * root, each node with its child count and label, no payloads read. Its cost does not grow with the session.
   */
  treePage(sessionId: string, options: { before?: string | null; limit?: number } = {}): TreeOverviewPage {
    const leafId = this.leaf(sessionId);
    const start = options.before ? this.row(sessionId, options.before).parent_id : leafId;
    return this.trees.page(sessionId, start, Math.max(1, Math.min(options.limit ?? 200, 2000)), leafId, options.before ?? null);
  }

  /**
   * A page of a branch read down from `from` (inclusive), following the newest child at each step: how a tree
   * view opens a branch the leaf is not on. Each node with its child count and label, no payloads read.
   */
  treeBranch(sessionId: string, from: string, options: { limit?: number } = {}): TreeBranchPage {
    this.row(sessionId, from);
    return this.trees.branch(sessionId, from, Math.max(1, Math.min(options.limit ?? 200, 2000)));
  }

  /** Every entry of a session in creation order (parents before children); for export. */
  *allEntries(sessionId: string): Generator<Entry> {
    this.session(sessionId);
    for (const row of this.q.allEntries.iterate(sessionId) as Iterable<EntryRow>) yield parseEntryRow(row);
  }

  /** Entries from the root to `leafId` (default: the session's leaf). Walks the whole path: prefer page/context. */
  path(sessionId: string, leafId?: string | null): Entry[] {
    const start = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (start === null) return [];
    return (this.q.walkUp.all({ session: sessionId, id: start, limit: -1 }) as EntryRow[]).reverse().map((r) => parseEntryRow(r));
  }

  /** A page of the current branch, from `before` (exclusive; default: from the leaf) up toward the root. */
  page(sessionId: string, options: { before?: string | null; limit?: number } = {}): TranscriptPage {
    const leafId = this.leaf(sessionId);
    const limit = Math.max(1, Math.min(options.limit ?? 100, 1000));
    // The first page is what a window shows on opening a session: it learns whether the session is read-only.
    const known = options.before ? this.integrity.known(sessionId) : this.integrity.verified(sessionId, leafId);
    let start: string | null = leafId;
    if (options.before) start = this.row(sessionId, options.before).parent_id;
    if (start === null) return { entries: [], before: null, leafId, integrity: integrityOf(known.changed) };
    const rows = this.q.walkUp.all({ session: sessionId, id: start, limit: limit + 1 }) as EntryRow[];
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const verifier = new ChainVerifier();
    for (const row of rows) verifier.push(row);
    // With more rows than the page, the extra row only lends its hash to the page's oldest entry.
    const changed = more ? verifier.changed : verifier.finish((id) => this.hashOf(sessionId, id));
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
    this.syncDataVersion();
    const leaf = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (leaf === null) return { leafId: leaf, entries: [], messages: [], model: null, thinkingLevel: null, integrity: integrityOf([]) };
    this.row(sessionId, leaf);
    const context = this.contexts.build(sessionId, leaf, this.rows);
    this.integrity.known(sessionId).remember(leaf, context.integrity.changed);
    return context;
  }

  /**
   * The model and thinking level of the branch at `leafId` (default: the leaf), without building its
   * context: two stored references on the leaf's row, and the two entries they name.
   */
  branchState(sessionId: string, leafId?: string | null): BranchState {
    const leaf = leafId === undefined ? this.leaf(sessionId) : leafId;
    if (leaf === null) return { model: null, thinkingLevel: null };
    const refs = this.q.parentRow.get(sessionId, leaf) as ParentRow | undefined;
    if (!refs) throw new AmberError('not_found', `Entry ${leaf} is not in conversation ${sessionId}.`);
    return branchStateOf(refs, (id) => this.entry(sessionId, id));
  }

  /** Forgets what other connections may have changed since this store last checked. */
  protected syncDataVersion(): void {
    const version = this.q.dataVersion.get() as number;
    if (version === this.#dataVersion) return;
    this.heads.clear();
    this.contexts.forgetWalks();
    this.#dataVersion = version;
  }

  protected hashOf(sessionId: string, entryId: string): string {
    return (this.q.hashOf.get(sessionId, entryId) as { hash: string } | undefined)?.hash ?? '';
  }

  protected session(sessionId: string): SessionRow {
    const row = this.q.session.get(sessionId) as SessionRow | undefined;
    if (!row) throw this.missing(sessionId);
    return row;
  }

  protected row(sessionId: string, entryId: string): EntryRow {
    const row = this.q.entry.get(sessionId, entryId) as EntryRow | undefined;
    if (!row) throw new AmberError('not_found', `Entry ${entryId} is not in conversation ${sessionId}.`);
    return row;
  }

  protected missing(sessionId: string): AmberError {
    return new AmberError('not_found', `The conversation ${sessionId} does not exist (it may have been deleted).`);
  }
}

/** The words around the first place `query` occurs in `text` (any case), about 90 characters, with … where cut. */
export function matchSnippet(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const at = flat.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0 || flat.length <= 90) return flat.slice(0, 90);
  const start = Math.max(0, at - 30);
  const end = Math.min(flat.length, start + 90);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}
