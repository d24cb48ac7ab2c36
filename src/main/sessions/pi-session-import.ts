import type { SessionSummary } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import { type ParsePiSessionOptions, parsePiSession } from './pi-session-format.ts';
import type { SessionStore } from './session-store.ts';

export interface PiImportResult {
  session: SessionSummary;
  /** How many entries were imported. */
  entries: number;
  /** The format version the file was written in. */
  version: number;
}

/**
 * Imports a pi session file's text as a new session, keeping entry ids, the tree, labels and the leaf.
 * The file is parsed and checked whole before anything is written, and the write is one transaction: a
 * file never imports half-way. The session keeps pi's session id unless that id is already taken here.
 */
export function importPiSession(store: SessionStore, text: string, options: ParsePiSessionOptions = {}): PiImportResult {
  const parsed = parsePiSession(text, options);
  const { version, ...data } = parsed;
  const session = store.importSession(isTaken(store, data.id) ? { ...data, id: undefined } : data);
  return { session, entries: data.entries.length, version };
}

function isTaken(store: SessionStore, sessionId: string): boolean {
  try {
    store.get(sessionId);
    return true;
  } catch (e) {
    if (e instanceof AmberError && e.code === 'not_found') return false;
    throw e;
  }
}
