import { serializePiSession } from './pi-session-format.ts';
import type { SessionStore } from './session-store.ts';

/** A session as the text of a version 3 pi session file; the file's last line is the session's leaf. */
export function exportPiSession(store: SessionStore, sessionId: string): string {
  return serializePiSession(store.get(sessionId), store.allEntries(sessionId));
}
