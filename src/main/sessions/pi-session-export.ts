import type { Entry } from '../../shared/sessions/index.ts';
import { inlineEntryImages } from './image-blobs.ts';
import { serializePiSession } from './pi-session-format.ts';
import type { SessionStore } from './session-store.ts';

/**
 * A session as the text of a version 3 pi session file; the file's last line is the session's leaf. Images
 * are written as pi stores them, their base64 data inline (importing the file stores them as blobs again).
 */
export function exportPiSession(store: SessionStore, sessionId: string): string {
  return serializePiSession(store.get(sessionId), withImages(store.allEntries(sessionId), store));
}

function* withImages(entries: Iterable<Entry>, store: SessionStore): Iterable<Entry> {
  for (const entry of entries) yield inlineEntryImages(entry, store.blobs);
}
