import { type Entry, isAssistant, type ModelContext } from '../../shared/sessions/index.ts';
import type { SessionStore } from '../sessions/index.ts';

/** What the run's context reads from the session store. */
export type RunContextStore = Pick<SessionStore, 'leaf' | 'context'>;

/**
 * One run's model context, kept in memory across its turns. It is read from the store (which walks and
 * verifies the branch) when the run first needs it, after the run wrote an entry that changes the cut or the
 * branch's model (a compaction, a model or thinking change), and whenever the session's leaf is not where the
 * run's own last write left it (another writer appended or moved it). Otherwise each entry the run appends is
 * added here by the store's rules, so a turn does not rebuild (and verify again) the context it already has.
 * The store verifies the branch when it builds the context (a session changed outside Amber ends the run
 * there) and refuses every write to a session it found changed; an entry rewritten in place by another
 * program during a run is found by the next build, at the latest when the next run starts.
 *
 * The rules mirror the store's context build and must stay the same: a message reaches the model unless it is
 * a failed or stopped reply; a custom message reaches it as a user message; other entries only move the leaf.
 */
export class RunContext {
  readonly #store: RunContextStore;
  readonly #sessionId: string;
  #context: ModelContext | null = null;

  constructor(store: RunContextStore, sessionId: string) {
    this.#store = store;
    this.#sessionId = sessionId;
  }

  /** The context at the session's leaf. The arrays are the run's own: callers must not change them. */
  current(): ModelContext {
    const kept = this.#context;
    if (kept && this.#store.leaf(this.#sessionId) === kept.leafId) return kept;
    const built = this.#store.context(this.#sessionId);
    this.#context = { ...built, entries: [...built.entries], messages: [...built.messages] };
    return this.#context;
  }

  /** Tells the context about an entry the run appended under the leaf. */
  appended(entry: Entry): void {
    const kept = this.#context;
    if (!kept) return;
    if (entry.parentId !== kept.leafId) {
      this.#context = null;
      return;
    }
    switch (entry.type) {
      case 'message':
        if (!isAssistant(entry.message) || (entry.message.stopReason !== 'error' && entry.message.stopReason !== 'aborted')) {
          kept.entries.push(entry);
          kept.messages.push(entry.message);
        }
        break;
      case 'custom_message':
        kept.entries.push(entry);
        kept.messages.push({ role: 'user', content: entry.content });
        break;
      case 'custom':
      case 'label':
      case 'session_info':
        break;
      default:
        // A compaction, a branch summary, a model or thinking change: the store builds the context anew.
        this.#context = null;
        return;
    }
    kept.leafId = entry.id;
  }

  /** Reads the context from the store at the next `current()`. */
  forget(): void {
    this.#context = null;
  }
}
