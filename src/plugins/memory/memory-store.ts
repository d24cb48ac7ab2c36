import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { anyWordQuery, compareTexts, contentHash, estimateTokens } from './memory-text.ts';
import { GLOBAL_SCOPE, MAX_MEMORY_CHARS, type MemoryKind, type MemoryRecord, type MemoryStatus } from './memory-record.ts';

/** At or above this word similarity a new memory is the same as one kept: its evidence grows instead. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;
/**
 * From this similarity up to a near duplicate, a memory of the same kind and scope whose words differ in at
 * most one word besides values, or that says the same and a little more, is on the same subject: the newer
 * replaces it (memory-text.ts compareTexts).
 */
export const SAME_SUBJECT_SIMILARITY = 0.5;
/** What recall puts in a prompt at most. */
export const RECALL_TOKENS = 1000;

export interface MemoryWrite {
  text: string;
  kind: MemoryKind;
  /** GLOBAL_SCOPE or a workspace folder. */
  scope: string;
  /** active for a write the user made or allowed (auto mode); suggested waits for the user. */
  status: 'active' | 'suggested';
  sourceSession?: string | null;
  sourceEntry?: string | null;
  /** An explicit replacement: this memory replaces that one (once active). */
  supersedes?: number | null;
}

/**
 * added: a new memory. repeated: the same text or nearly was kept already; its evidence grew (and a user's
 * write made a waiting suggestion active). declined: the user dismissed or deleted it before; only evidence grew.
 */
export type WriteOutcome = { outcome: 'added' | 'repeated' | 'declined'; memory: MemoryRecord; replaced: MemoryRecord | null };

export interface RecallQuery {
  /** The new prompt and the last turns. */
  prompt: string;
  /** The conversation's workspace: its memories and the global ones are recalled. */
  workspace: string;
  maxTokens?: number;
  /** Relevant (not pinned) memories considered at most. */
  candidates?: number;
}

interface Row {
  id: number;
  text: string;
  kind: string;
  scope: string;
  pinned: number;
  status: string;
  evidence: number;
  first_seen: number;
  last_seen: number;
  last_recalled: number | null;
  source_session: string | null;
  source_entry: string | null;
  supersedes: number | null;
  hash: string;
}

const SCHEMA = `
create table if not exists memories (
  id integer primary key,
  text text not null,
  kind text not null check (kind in ('user', 'project', 'procedure')),
  scope text not null,
  pinned integer not null default 0,
  status text not null check (status in ('active', 'suggested', 'superseded', 'deleted', 'dismissed')),
  evidence integer not null default 1,
  first_seen integer not null,
  last_seen integer not null,
  last_recalled integer,
  source_session text,
  source_entry text,
  supersedes integer,
  hash text not null
);
create index if not exists memories_hash on memories (hash, scope);
create index if not exists memories_status on memories (status, scope, pinned);
create virtual table if not exists memories_fts using fts5 (text, content = 'memories', content_rowid = 'id', tokenize = 'porter unicode61');
create trigger if not exists memories_ai after insert on memories begin
  insert into memories_fts (rowid, text) values (new.id, new.text);
end;
create trigger if not exists memories_ad after delete on memories begin
  insert into memories_fts (memories_fts, rowid, text) values ('delete', old.id, old.text);
end;
create trigger if not exists memories_au after update of text on memories begin
  insert into memories_fts (memories_fts, rowid, text) values ('delete', old.id, old.text);
  insert into memories_fts (rowid, text) values (new.id, new.text);
end;
create table if not exists memory_meta (key text primary key, value text not null);
`;

/**
 * The memory plugin's own SQLite file (never main's database): memories with their history, a full-text
 * index for recall (FTS5, BM25), and the plugin's few switches. SQL only; what to write is decided here
 * from the text (repeats, near duplicates, replacements), when to write is the plugin's call.
 */
export class MemoryStore {
  readonly #db: DatabaseSync;
  readonly #now: () => number;

  private constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  static open(path: string, now: () => number = Date.now): MemoryStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const db = new DatabaseSync(path);
    db.exec('pragma journal_mode = wal; pragma synchronous = normal; pragma busy_timeout = 2000;');
    db.exec(SCHEMA);
    return new MemoryStore(db, now);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  write(input: MemoryWrite): WriteOutcome {
    const text = input.text.trim();
    if (text === '') throw new Error('A memory needs some text.');
    if (text.length > MAX_MEMORY_CHARS) throw new Error(`A memory is at most ${MAX_MEMORY_CHARS} characters; this one has ${text.length}.`);
    const now = this.#now();
    const hash = contentHash(text);
    return this.#transaction(() => {
      const same = this.#row('select * from memories where hash = ? and scope = ? and status != ? order by id desc limit 1', hash, input.scope, 'superseded');
      // An explicit replacement (an edit) is never a repeat of what it replaces.
      const replacing = input.supersedes ?? null;
      if (same && same.id !== replacing) return this.#repeat(same, input, now);
      const candidates = this.#similar(text, input.scope, ['active', 'suggested']).filter((c) => c.row.id !== replacing);
      const near = candidates.find((c) => c.verdict === 'repeat');
      if (near) return this.#repeat(near.row, input, now);
      const explicit = input.supersedes != null ? this.get(input.supersedes) : null;
      const subject = explicit ?? candidates.find((c) => c.row.kind === input.kind && c.verdict === 'replace')?.row ?? null;
      const id = Number(
        this.#db
          .prepare(
            `insert into memories (text, kind, scope, status, first_seen, last_seen, source_session, source_entry, supersedes, hash)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(text, input.kind, input.scope, input.status, now, now, input.sourceSession ?? null, input.sourceEntry ?? null, subject?.id ?? null, hash)
          .lastInsertRowid,
      );
      let replaced: MemoryRecord | null = null;
      // A suggestion replaces a waiting suggestion at once, an active memory only once it is accepted.
      if (subject && (input.status === 'active' || subject.status === 'suggested')) replaced = this.#supersede(subject.id);
      return { outcome: 'added', memory: this.get(id)!, replaced };
    });
  }

  get(id: number): MemoryRecord | null {
    const row = this.#row('select * from memories where id = ?', id);
    return row ? record(row) : null;
  }

  /** Newest first. `scope` undefined: every scope. */
  list(statuses: readonly MemoryStatus[], options: { scope?: string; limit?: number } = {}): MemoryRecord[] {
    const args: SQLInputValue[] = [...statuses];
    let where = `status in (${statuses.map(() => '?').join(', ')})`;
    if (options.scope !== undefined) {
      where += ' and scope = ?';
      args.push(options.scope);
    }
    args.push(options.limit ?? 10_000);
    return this.#rows(`select * from memories where ${where} order by pinned desc, last_seen desc, id desc limit ?`, ...args).map(record);
  }

  count(status: MemoryStatus): number {
    return Number((this.#db.prepare('select count(*) as n from memories where status = ?').get(status) as { n: number }).n);
  }

  /** Active and waiting memories matching any of the words, best first (BM25). */
  search(words: string, limit = 20): MemoryRecord[] {
    const query = anyWordQuery(words);
    if (!query) return [];
    return this.#rows(
      `select m.* from memories_fts join memories m on m.id = memories_fts.rowid
       where memories_fts match ? and m.status in ('active', 'suggested') order by bm25(memories_fts) limit ?`,
      query,
      limit,
    ).map(record);
  }

  /**
   * What the next request should know: the pinned memories of the workspace and global, then the most
   * relevant others (BM25 against the prompt), within `maxTokens`. Marks them recalled.
   */
  recall(query: RecallQuery): MemoryRecord[] {
    const maxTokens = query.maxTokens ?? RECALL_TOKENS;
    const scopes = [GLOBAL_SCOPE, query.workspace];
    const pinned = this.#rows(`select * from memories where status = 'active' and pinned = 1 and scope in (?, ?) order by last_seen desc limit 100`, ...scopes);
    const match = anyWordQuery(query.prompt);
    const relevant = match
      ? this.#rows(
          `select m.* from memories_fts join memories m on m.id = memories_fts.rowid
           where memories_fts match ? and m.status = 'active' and m.pinned = 0 and m.scope in (?, ?)
           order by bm25(memories_fts) limit ?`,
          match,
          ...scopes,
          query.candidates ?? 20,
        )
      : [];
    const chosen: MemoryRecord[] = [];
    let tokens = 0;
    for (const row of [...pinned, ...relevant]) {
      const cost = estimateTokens(row.text) + 4;
      if (tokens + cost > maxTokens) continue;
      tokens += cost;
      chosen.push(record(row));
    }
    if (chosen.length > 0) {
      const now = this.#now();
      this.#db.prepare(`update memories set last_recalled = ? where id in (${chosen.map(() => '?').join(', ')})`).run(now, ...chosen.map((m) => m.id));
    }
    return chosen;
  }

  /** A waiting suggestion becomes active (and replaces what it supersedes). */
  accept(id: number): MemoryRecord {
    return this.#transaction(() => {
      const m = this.#expect(id, ['suggested']);
      this.#setStatus(id, 'active');
      if (m.supersedes !== null && this.get(m.supersedes)?.status === 'active') this.#supersede(m.supersedes);
      return this.get(id)!;
    });
  }

  dismiss(id: number): MemoryRecord {
    this.#expect(id, ['suggested']);
    this.#setStatus(id, 'dismissed');
    return this.get(id)!;
  }

  /** Deleted memories stay restorable until forgetAll. */
  remove(id: number): MemoryRecord {
    this.#expect(id, ['active', 'suggested']);
    this.#setStatus(id, 'deleted');
    return this.get(id)!;
  }

  restore(id: number): MemoryRecord {
    this.#expect(id, ['deleted', 'dismissed', 'superseded']);
    this.#setStatus(id, 'active');
    return this.get(id)!;
  }

  pin(id: number, pinned: boolean): MemoryRecord {
    this.#expect(id, ['active', 'suggested']);
    this.#db.prepare('update memories set pinned = ? where id = ?').run(pinned ? 1 : 0, id);
    return this.get(id)!;
  }

  /** Removes every memory, history included, for good. Answers how many there were. */
  forgetAll(): number {
    return this.#transaction(() => {
      const n = Number((this.#db.prepare('select count(*) as n from memories').get() as { n: number }).n);
      this.#db.exec("delete from memories; insert into memories_fts (memories_fts) values ('rebuild');");
      return n;
    });
  }

  getMeta(key: string): string | null {
    const row = this.#db.prepare('select value from memory_meta where key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string | null): void {
    if (value === null) this.#db.prepare('delete from memory_meta where key = ?').run(key);
    else this.#db.prepare('insert into memory_meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value').run(key, value);
  }

  /** Many writes in one transaction (an import, a benchmark's fill). */
  batch<T>(fn: () => T): T {
    return this.#transaction(fn);
  }

  #repeat(row: Row, input: MemoryWrite, now: number): WriteOutcome {
    this.#db.prepare('update memories set evidence = evidence + 1, last_seen = ? where id = ?').run(now, row.id);
    const declined = row.status === 'deleted' || row.status === 'dismissed';
    // The user's own write brings back what it names; an extracted repeat leaves the user's no standing.
    if (input.status === 'active' && row.status !== 'active') this.#setStatus(row.id, 'active');
    const outcome = declined && input.status !== 'active' ? 'declined' : 'repeated';
    return { outcome, memory: this.get(row.id)!, replaced: null };
  }

  /** Kept memories of the scope that share words with the text, each judged against it (compareTexts), repeats first. */
  #similar(text: string, scope: string, statuses: readonly MemoryStatus[]): { row: Row; verdict: 'repeat' | 'replace' | 'distinct' }[] {
    const query = anyWordQuery(text);
    if (!query) return [];
    const rows = this.#rows(
      `select m.* from memories_fts join memories m on m.id = memories_fts.rowid
       where memories_fts match ? and m.scope = ? and m.status in (${statuses.map(() => '?').join(', ')})
       order by bm25(memories_fts) limit 20`,
      query,
      scope,
      ...statuses,
    );
    const thresholds = { near: NEAR_DUPLICATE_SIMILARITY, subject: SAME_SUBJECT_SIMILARITY };
    const rank = { repeat: 0, replace: 1, distinct: 2 } as const;
    return rows.map((row) => ({ row, verdict: compareTexts(row.text, text, thresholds) })).sort((a, b) => rank[a.verdict] - rank[b.verdict]);
  }

  #supersede(id: number): MemoryRecord {
    this.#setStatus(id, 'superseded');
    return this.get(id)!;
  }

  #expect(id: number, statuses: readonly MemoryStatus[]): MemoryRecord {
    const m = this.get(id);
    if (!m) throw new Error(`There is no memory ${id}.`);
    if (!statuses.includes(m.status)) throw new Error(`Memory ${id} is ${m.status}, so it cannot be changed that way.`);
    return m;
  }

  #setStatus(id: number, status: MemoryStatus): void {
    this.#db.prepare('update memories set status = ? where id = ?').run(status, id);
  }

  #row(sql: string, ...args: SQLInputValue[]): Row | undefined {
    return this.#db.prepare(sql).get(...args) as Row | undefined;
  }

  #rows(sql: string, ...args: SQLInputValue[]): Row[] {
    return this.#db.prepare(sql).all(...args) as unknown as Row[];
  }

  #transaction<T>(fn: () => T): T {
    if (this.#db.isTransaction) return fn();
    this.#db.exec('begin immediate');
    try {
      const out = fn();
      this.#db.exec('commit');
      return out;
    } catch (e) {
      this.#db.exec('rollback');
      throw e;
    }
  }
}

function record(row: Row): MemoryRecord {
  return {
    id: row.id,
    text: row.text,
    kind: row.kind as MemoryKind,
    scope: row.scope,
    pinned: row.pinned === 1,
    status: row.status as MemoryStatus,
    evidence: row.evidence,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    lastRecalled: row.last_recalled,
    sourceSession: row.source_session,
    sourceEntry: row.source_entry,
    supersedes: row.supersedes,
    hash: row.hash,
  };
}
