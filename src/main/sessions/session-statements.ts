import type Database from 'better-sqlite3';

const ENTRY_COLS = 'seq, id, parent_id, type, depth, model_ref, thinking_ref, payload, hash';
// A message's time as written (an import keeps it) and a reply's model, as a JSON array, for the tree's rows: only
// user and assistant messages' payloads are opened.
const MESSAGE_FACTS = `CASE WHEN role IN ('user', 'assistant') THEN json_extract(payload, '$.timestamp', '$.message.model') END`;
const BEHIND = `EXISTS (SELECT 1 FROM entries e WHERE e.session_id = sessions.id AND e.parent_id IS sessions.leaf_id AND e.seq > sessions.leaf_mark) AS behind`;

/** The session store's statements, prepared once per connection. */
export function prepareSessionStatements(db: Database.Database) {
  return {
    insertSession: db.prepare(
      `INSERT INTO sessions (id, title, created_at, updated_at, cwd, parent_session_id, parent_tool_call_id) VALUES (@id, @title, @now, @now, @cwd, @parentSessionId, @parentToolCallId)`,
    ),
    session: db.prepare(`SELECT * FROM sessions WHERE id = ?`),
    // `behind`: whether entries were appended below the row's leaf since it was written (then it is derived).
    listSessions: db.prepare(`SELECT *, ${BEHIND} FROM sessions WHERE parent_session_id IS NULL AND (@cwd IS NULL OR cwd = @cwd)
       ORDER BY updated_at DESC, id LIMIT @limit OFFSET @offset`),
    searchSessions: db.prepare(
      `SELECT *, ${BEHIND} FROM sessions WHERE parent_session_id IS NULL AND (@cwd IS NULL OR cwd = @cwd) AND (title LIKE @pattern ESCAPE '\\' OR preview LIKE @pattern ESCAPE '\\'
       OR id IN (SELECT session_id FROM entries WHERE type = 'message' AND preview LIKE @pattern ESCAPE '\\'))
       ORDER BY updated_at DESC, id LIMIT @limit OFFSET @offset`,
    ),
    // The newest message of a conversation whose text holds a search's words: the sidebar shows it as the match.
    matchPreview: db.prepare(
      `SELECT preview FROM entries WHERE session_id = @id AND type = 'message' AND preview LIKE @pattern ESCAPE '\\' ORDER BY created_at DESC LIMIT 1`,
    ),
    countSessions: db.prepare(`SELECT count(*) AS n FROM sessions`),
    renameSession: db.prepare(`UPDATE sessions SET title = @title, updated_at = @now WHERE id = @id`),
    setSessionCwd: db.prepare(`UPDATE sessions SET cwd = @cwd WHERE id = @id`),
    deleteEntries: db.prepare(`DELETE FROM entries WHERE session_id = ?`),
    deleteSession: db.prepare(`DELETE FROM sessions WHERE id = ?`),
    setLeaf: db.prepare(`UPDATE sessions SET leaf_id = @leaf, leaf_mark = @mark, updated_at = @now, message_count = message_count + @messages WHERE id = @id`),
    writeHead: db.prepare(
      `UPDATE sessions SET leaf_id = @leaf, leaf_mark = @mark, updated_at = @now, message_count = message_count + @messages,
         preview = coalesce(@preview, preview), title = coalesce(@title, title) WHERE id = @id`,
    ),
    importedSummary: db.prepare(
      `UPDATE sessions SET leaf_id = @leaf, leaf_mark = @mark, updated_at = @now, message_count = @messages,
         preview = coalesce(@preview, preview), title = coalesce(@title, title) WHERE id = @id`,
    ),
    // The entry appended under `parent` since the session's row was written (the newest child above the mark).
    newerChild: db.prepare(
      `SELECT seq, id, type, role, created_at FROM entries WHERE session_id = @session AND parent_id IS @parent AND seq > @mark ORDER BY seq DESC LIMIT 1`,
    ),
    childMark: db.prepare(`SELECT max(seq) FROM entries WHERE session_id = @session AND parent_id IS @parent`).pluck(),
    insertEntry: db.prepare(
      `INSERT INTO entries (session_id, id, parent_id, type, role, preview, target_id, depth, model_ref, thinking_ref, payload, hash, created_at)
       VALUES (@session, @id, @parent, @type, @role, @preview, @target, @depth, @modelRef, @thinkingRef, @payload, @hash, @now)`,
    ),
    entry: db.prepare(`SELECT ${ENTRY_COLS} FROM entries WHERE session_id = ? AND id = ?`),
    parentRow: db.prepare(`SELECT depth, model_ref, thinking_ref, hash FROM entries WHERE session_id = ? AND id = ?`),
    hashOf: db.prepare(`SELECT hash FROM entries WHERE session_id = ? AND id = ?`),
    roots: db.prepare(`SELECT id FROM entries WHERE session_id = ? AND parent_id IS NULL ORDER BY seq`),
    children: db.prepare(`SELECT id FROM entries WHERE session_id = ? AND parent_id = ? ORDER BY seq`),
    newestChild: db.prepare(`SELECT id FROM entries WHERE session_id = ? AND parent_id = ? ORDER BY seq DESC LIMIT 1`),
    labels: db.prepare(`SELECT target_id, payload FROM entries WHERE session_id = ? AND type = 'label' ORDER BY seq`),
    allEntries: db.prepare(`SELECT ${ENTRY_COLS} FROM entries WHERE session_id = ? ORDER BY seq`),
    treeRows: db.prepare(`SELECT id, parent_id, type, role, preview, created_at, ${MESSAGE_FACTS} AS facts FROM entries WHERE session_id = ? ORDER BY seq`),
    // From an entry up toward the root, nearest first; LIMIT -1 walks the whole path.
    walkUp: db.prepare(
      `WITH RECURSIVE up(seq, id, parent_id, type, depth, model_ref, thinking_ref, payload, hash) AS (
         SELECT ${ENTRY_COLS} FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT e.seq, e.id, e.parent_id, e.type, e.depth, e.model_ref, e.thinking_ref, e.payload, e.hash FROM entries e JOIN up ON e.session_id = @session AND e.id = up.parent_id
       ) SELECT * FROM up LIMIT @limit`,
    ),
    // The tree overview's rows from an entry upward: no payloads (messages' times and models aside), each with its child count.
    walkUpTree: db.prepare(
      `WITH RECURSIVE up(depth, id, parent_id, type, role, preview, created_at) AS (
         SELECT 0, id, parent_id, type, role, preview, created_at FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT up.depth + 1, e.id, e.parent_id, e.type, e.role, e.preview, e.created_at FROM entries e JOIN up ON e.session_id = @session AND e.id = up.parent_id
         LIMIT @limit
       ) SELECT id, parent_id, type, role, preview, created_at,
           (SELECT count(*) FROM entries c WHERE c.session_id = @session AND c.parent_id = up.id) AS children,
           (SELECT ${MESSAGE_FACTS} FROM entries m WHERE m.session_id = @session AND m.id = up.id) AS facts
         FROM up ORDER BY depth`,
    ),
    // A branch read downward from an entry, following the newest child at each step; no payloads (messages' times and models aside), each with its child count.
    walkDownTree: db.prepare(
      `WITH RECURSIVE down(depth, id, parent_id, type, role, preview, created_at) AS (
         SELECT 0, id, parent_id, type, role, preview, created_at FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT down.depth + 1, e.id, e.parent_id, e.type, e.role, e.preview, e.created_at FROM down
           JOIN entries e ON e.seq = (SELECT max(c.seq) FROM entries c WHERE c.session_id = @session AND c.parent_id = down.id)
         LIMIT @limit
       ) SELECT id, parent_id, type, role, preview, created_at,
           (SELECT count(*) FROM entries c WHERE c.session_id = @session AND c.parent_id = down.id) AS children,
           (SELECT ${MESSAGE_FACTS} FROM entries m WHERE m.session_id = @session AND m.id = down.id) AS facts
         FROM down ORDER BY depth`,
    ),
    // The children of a branch point (null: the roots), oldest first, as tree overview rows.
    childTreeRows: db.prepare(
      `SELECT id, parent_id, type, role, preview, created_at, ${MESSAGE_FACTS} AS facts,
         (SELECT count(*) FROM entries c WHERE c.session_id = @session AND c.parent_id = e.id) AS children
         FROM entries e WHERE session_id = @session AND parent_id IS @parent ORDER BY seq LIMIT @limit`,
    ),
    labelsOf: db.prepare(
      `SELECT target_id, payload FROM entries WHERE session_id = @session AND type = 'label'
         AND target_id IN (SELECT value FROM json_each(@ids)) ORDER BY seq`,
    ),
    // The nearest custom entry of a type from an entry up toward the root: only custom entries' payloads are read,
    // and the walk stops at the first one that matches.
    newestCustomUp: db.prepare(
      `WITH RECURSIVE up(id, parent_id, custom) AS (
         SELECT id, parent_id, CASE WHEN type = 'custom' THEN payload END FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT e.id, e.parent_id, CASE WHEN e.type = 'custom' THEN e.payload END FROM entries e JOIN up ON e.session_id = @session AND e.id = up.parent_id
       ) SELECT id, parent_id FROM up WHERE custom IS NOT NULL AND json_valid(custom) AND json_extract(custom, '$.customType') = @customType LIMIT 1`,
    ),
    walkUpIds: db.prepare(
      `WITH RECURSIVE up(id, parent_id) AS (
         SELECT id, parent_id FROM entries WHERE session_id = @session AND id = @id
         UNION ALL
         SELECT e.id, e.parent_id FROM entries e JOIN up ON e.session_id = @session AND e.id = up.parent_id
       ) SELECT id FROM up`,
    ),
    pathMark: db.prepare(`SELECT path_id AS id, path_hash AS hash, path_depth AS depth FROM verified_marks WHERE session_id = ? AND path_id IS NOT NULL`),
    setPathMark: db.prepare(
      `INSERT INTO verified_marks (session_id, path_id, path_hash, path_depth) VALUES (@session, @id, @hash, @depth)
       ON CONFLICT(session_id) DO UPDATE SET path_id = excluded.path_id, path_hash = excluded.path_hash, path_depth = excluded.path_depth`,
    ),
    checkedSeq: db.prepare(`SELECT checked_seq FROM verified_marks WHERE session_id = ?`).pluck(),
    setCheckedSeq: db.prepare(
      `INSERT INTO verified_marks (session_id, checked_seq) VALUES (?, ?) ON CONFLICT(session_id) DO UPDATE SET checked_seq = excluded.checked_seq`,
    ),
    countRowsAfter: db.prepare(`SELECT count(*) FROM entries WHERE session_id = ? AND seq > ?`).pluck(),
    hashRowsAfter: db.prepare(`SELECT seq, id, parent_id, type, payload, hash FROM entries WHERE session_id = ? AND seq > ? ORDER BY seq`),
    // The same from a recent mark: the rows after it by row id (`+` keeps the planner off the session index,
    // which would visit every entry of the session to find the few newer ones).
    hashRowsSince: db.prepare(`SELECT seq, id, parent_id, type, payload, hash FROM entries WHERE +session_id = ? AND seq > ? ORDER BY seq`),
    // Changes when another connection commits (never for this one's own commits).
    dataVersion: db.prepare(`PRAGMA data_version`).pluck(),
    // A conversation's child agents' conversations (migration 8).
    childSessions: db.prepare(`SELECT id FROM sessions WHERE parent_session_id = ?`).pluck(),
  };
}

export type SessionStatements = ReturnType<typeof prepareSessionStatements>;
