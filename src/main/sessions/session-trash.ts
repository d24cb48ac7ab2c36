import type { Entry, SessionSummary } from '../../shared/sessions/index.ts';
import type { SessionStore } from './session-store.ts';
import { AmberError } from '../errors.ts';

interface Trashed {
  summary: SessionSummary;
  entries: Entry[];
  deletedAt: number;
}

/**
 * Deleted sessions, kept in memory for a short while so that "undo" can bring them back whole (ids, tree
 * and leaf). The database forgets a session at once; a restart empties the trash.
 */
export class SessionTrash {
  readonly #store: SessionStore;
  readonly #keepMs: number;
  readonly #max: number;
  readonly #clock: () => number;
  readonly #items = new Map<string, Trashed>();

  constructor(store: SessionStore, options: { keepMs?: number; max?: number; clock?: () => number } = {}) {
    this.#store = store;
    this.#keepMs = options.keepMs ?? 5 * 60_000;
    this.#max = options.max ?? 20;
    this.#clock = options.clock ?? Date.now;
  }

  /** Deletes the session from the store, keeping a copy for `restore`. */
  delete(sessionId: string): void {
    const summary = this.#store.get(sessionId);
    const entries = [...this.#store.allEntries(sessionId)];
    this.#store.delete(sessionId);
    this.#prune();
    this.#items.set(sessionId, { summary, entries, deletedAt: this.#clock() });
    while (this.#items.size > this.#max) this.#items.delete(this.#items.keys().next().value!);
  }

  restore(sessionId: string): SessionSummary {
    this.#prune();
    const item = this.#items.get(sessionId);
    if (!item) throw new AmberError('not_found', 'That conversation can no longer be restored: undo is kept for a few minutes only.');
    const { summary, entries } = item;
    const restored = this.#store.importSession({
      id: summary.id,
      title: summary.title,
      cwd: summary.cwd,
      createdAt: summary.createdAt,
      entries,
      leafId: summary.leafId,
    });
    this.#items.delete(sessionId);
    return restored;
  }

  #prune(): void {
    const cutoff = this.#clock() - this.#keepMs;
    for (const [id, item] of this.#items) if (item.deletedAt < cutoff) this.#items.delete(id);
  }
}
