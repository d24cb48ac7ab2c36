import type { Entry, Message } from './entry.ts';
import type { SessionIntegrity } from './session-integrity.ts';

/** What a model is sent for a leaf: the path cut at the newest compaction, failed replies left out. */
export interface ModelContext {
  leafId: string | null;
  /** Entries of the cut path that reach the model, oldest first (compaction summary first when cut). */
  entries: Entry[];
  messages: Message[];
  model: { provider: string; modelId: string } | null;
  thinkingLevel: string | null;
  /** The hashes of the entries this context walked (leaf up to the cut); not ok when any was changed. */
  integrity: SessionIntegrity;
}
