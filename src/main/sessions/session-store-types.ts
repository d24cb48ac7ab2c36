import type { Entry, SessionIntegrity, SessionParent, SessionSummary } from '../../shared/sessions/index.ts';
import type { ParentRow } from './entry-row.ts';

/** A session's row as stored. */
export interface SessionRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  leaf_id: string | null;
  /** See migration 7: entries appended since the row was written are the newer children below `leaf_id`. */
  leaf_mark: number;
  message_count: number;
  preview: string;
  cwd: string | null;
  /** A child agent's conversation: its parent's and the task call's ids (migration 8). */
  parent_session_id?: string | null;
  parent_tool_call_id?: string | null;
}

/** The result of `SessionStore.check`: every entry of the session verified against its chained hash. */
export interface SessionCheck extends SessionIntegrity {
  sessionId: string;
  /** How many entries were verified (with `sinceLast`, those newer than the last intact check). */
  entries: number;
  /** Present when only the entries newer than the last intact check were verified. */
  sinceLast?: true;
}

export interface CheckOptions {
  /** Verify only the entries stored after the newest one the last intact check covered. */
  sinceLast?: boolean;
  /** Called every 10,000 entries with how many are verified and how many there are. */
  onProgress?(done: number, total: number): void;
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
  /** Only the conversations working in this folder (a project's). */
  cwd?: string;
}

export interface ImportedSession {
  id?: string;
  title?: string;
  cwd?: string | null;
  createdAt?: number;
  entries: Entry[];
  leafId: string | null;
  /** A child agent's conversation: the conversation and task call that started it. */
  parent?: SessionParent;
}

export function toSummary(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    leafId: row.leaf_id,
    messageCount: row.message_count,
    preview: row.preview,
    cwd: row.cwd,
    ...(row.parent_session_id ? { parent: { sessionId: row.parent_session_id, toolCallId: row.parent_tool_call_id ?? '' } } : {}),
  };
}

/** Where a session's leaf is now. */
export interface LeafMove {
  sessionId: string;
  leafId: string | null;
}

/**
 * What an append under a session's leaf needs to know: the leaf, its stored fields the new entry builds on,
 * and whether the session has its preview yet. Kept from this store's own last write to the session and
 * trusted only while no other connection has committed since (PRAGMA data_version), so an append does not
 * read the session row and the leaf row again.
 */
export interface Head {
  leafId: string | null;
  /** The leaf's stored fields; null for no leaf, or a leaf row not found (the insert then refuses the entry). */
  leaf: ParentRow | null;
  hasPreview: boolean;
  /** The depth of the session's verified path mark (-1: none). */
  markDepth: number;
  /** Entries and messages appended since the session's row was last written, and the newest's time. */
  pending: number;
  pendingMessages: number;
  updatedAt: number;
}
