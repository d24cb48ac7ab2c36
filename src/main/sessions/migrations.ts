import type Database from 'better-sqlite3';
import { AmberError } from '../errors.ts';
import { canonicalJson } from './canonical-json.ts';
import { entryHash } from './entry-hash.ts';

/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many ran. Never edit a shipped
 * migration: append a new one. Each runs in the same transaction as the version bump.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: sessions and their entry trees.
  `
  CREATE TABLE sessions (
    id            TEXT PRIMARY KEY,
    title         TEXT NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    leaf_id       TEXT,
    message_count INTEGER NOT NULL DEFAULT 0,
    preview       TEXT NOT NULL DEFAULT '',
    cwd           TEXT
  );
  CREATE INDEX sessions_by_updated ON sessions(updated_at DESC);
  CREATE TABLE entries (
    seq        INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    parent_id  TEXT,
    type       TEXT NOT NULL,
    role       TEXT,
    preview    TEXT NOT NULL DEFAULT '',
    target_id  TEXT,
    depth      INTEGER NOT NULL,
    -- The newest model_change / thinking_level_change on this entry's path (itself included), so the
    -- context finds the model without walking to the root.
    model_ref    TEXT,
    thinking_ref TEXT,
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (session_id, id),
    FOREIGN KEY (session_id, parent_id) REFERENCES entries(session_id, id)
  );
  CREATE INDEX entries_by_parent ON entries(session_id, parent_id);
  `,
  // 2: app-wide key/value settings and plugin on/off state.
  `
  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE TABLE plugin_states (
    plugin_id  TEXT PRIMARY KEY,
    enabled    INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // 3: no index on sessions.updated_at. Every append moves its session's row in such an index (two more
  // pages written per commit, a quarter of an append's cost); sorting a few thousand sessions when the
  // list is read costs about a millisecond instead.
  `
  DROP INDEX sessions_by_updated;
  `,
  // 4: each entry's chained hash (see entry-hash.ts), so an entry changed in place by another program is
  // evident. '' never matches a hash: a row inserted without one reads as changed. The store fills in the
  // hashes of existing entries in the same transaction (ENTRY_HASHES_VERSION), parents first.
  `
  ALTER TABLE entries ADD COLUMN hash TEXT NOT NULL DEFAULT '';
  `,
  // 5: per session, how far its hashes are known verified. `path_id` names an entry whose path (up to its
  // context's cut) was verified, with its hash then, so that a context built after a restart verifies only
  // the entries below it; `checked_seq` is the newest entry a check found intact, where `sessions check --since-last`
  // starts. Both are checkpoints: a change made above them afterwards is found by a full check.
  `
  CREATE TABLE verified_marks (
    session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    path_id     TEXT,
    path_hash   TEXT,
    path_depth  INTEGER NOT NULL DEFAULT -1,
    checked_seq INTEGER NOT NULL DEFAULT 0
  );
  `,
  // 6: labels found by their target, so that a page of the tree view reads only its own nodes' labels.
  // Partial: an append of anything but a label never writes to it.
  `
  CREATE INDEX entries_labels ON entries(session_id, target_id) WHERE type = 'label';
  `,
  // 7: appends no longer rewrite their session's row. The row's leaf is where the session's head was when
  // the row was last written; `leaf_mark` is the newest entry then among the leaf and its children, so the
  // entries appended since are the chain of children newer than the mark below the leaf (see SessionReader).
  // Existing rows were written by every append: their mark is their session's newest entry.
  `
  ALTER TABLE sessions ADD COLUMN leaf_mark INTEGER NOT NULL DEFAULT 0;
  UPDATE sessions SET leaf_mark = coalesce((SELECT max(seq) FROM entries WHERE entries.session_id = sessions.id), 0);
  `,
  // 8: a child agent's conversation names its parent conversation and the task call that started it; the
  // sessions list leaves such children out (they are opened from the parent's tool card).
  `
  ALTER TABLE sessions ADD COLUMN parent_session_id TEXT;
  ALTER TABLE sessions ADD COLUMN parent_tool_call_id TEXT;
  `,
  // 9: a conversation's message count is of the user's and the model's messages in every branch, as the tree
  // counts them: tool results, counted until now, are taken out of the stored counts (those appended after
  // the row's mark are left out as the head is derived).
  `
  UPDATE sessions SET message_count = max(0, message_count - (
    SELECT count(*) FROM entries e WHERE e.session_id = sessions.id AND e.type = 'message' AND e.role = 'toolResult' AND e.seq <= sessions.leaf_mark));
  `,
  // Images of messages and tool results, each stored once under the sha-256 of its bytes; entries name the
  // hash (so an entry's chained hash covers the reference), never carry the bytes inline.
  // (IF NOT EXISTS: a file set back to an older version to run an earlier migration again runs this one again too.)
  `
  CREATE TABLE IF NOT EXISTS blobs (
    hash       TEXT PRIMARY KEY,
    mime_type  TEXT NOT NULL,
    size       INTEGER NOT NULL,
    data       BLOB NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  // Scheduled tasks (a prompt, a project or folder, a model, a schedule, the tools a run may use without asking)
  // and their runs; a run's conversation is an ordinary session whose first entry tags it with the task.
  // (IF NOT EXISTS: a file set back to an older version to run an earlier migration again runs this one again too.)
  `
  CREATE TABLE IF NOT EXISTS scheduled_tasks (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    prompt      TEXT NOT NULL,
    project_id  TEXT,
    folder      TEXT NOT NULL,
    model       TEXT,
    schedule    TEXT NOT NULL,
    tools       TEXT NOT NULL,
    paused      INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    anchor      INTEGER NOT NULL,
    next_run_at INTEGER
  );
  CREATE TABLE IF NOT EXISTS scheduled_runs (
    id         TEXT PRIMARY KEY,
    task_id    TEXT NOT NULL REFERENCES scheduled_tasks(id) ON DELETE CASCADE,
    session_id TEXT,
    state      TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at   INTEGER,
    error      TEXT,
    missed     INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS scheduled_runs_by_task ON scheduled_runs(task_id, started_at);
  `,
  // Which conversations name which stored images, so that a deleted conversation's images go too: the rows go
  // with their conversation, and a blob no row names is deleted when the file is next opened (not at once: undo
  // brings a deleted conversation back for a few minutes). Filled in from the entries written so far.
  `
  CREATE TABLE IF NOT EXISTS blob_refs (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    PRIMARY KEY (session_id, hash)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS blob_refs_by_hash ON blob_refs(hash);
  INSERT OR IGNORE INTO blob_refs (session_id, hash)
    SELECT e.session_id, j.value FROM entries e, json_tree(e.payload) j
    WHERE e.payload LIKE '%"blob":"%' AND j.key = 'blob' AND j.type = 'text' AND j.value IN (SELECT hash FROM blobs);
  `,
];

/** The migration after which the store computes the hashes of entries written before it. */
export const ENTRY_HASHES_VERSION = 4;

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings a file up to SCHEMA_VERSION, one migration per transaction; refuses a file from a newer Amber. */
export function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new AmberError(
      'unavailable',
      `This data was written by a newer Amber (schema ${version}; this one knows ${SCHEMA_VERSION}). Update Amber to open it.`,
    );
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
function hashExistingEntries(db: Database.Database): void {
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
