import type { Entry, SessionSummary } from '../../shared/sessions/index.ts';
import type { SessionStore } from './session-store.ts';
import { AmberError } from '../errors.ts';

interface Kept {
  summary: SessionSummary;
  entries: Entry[];
}

interface Trashed extends Kept {
  /** The conversations of its child agents, deleted with it and restored with it. */
  children: Kept[];
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
    const keep = (id: string): Kept => ({ summary: this.#store.get(id), entries: [...this.#store.allEntries(id)] });
    const { summary, entries } = keep(sessionId);
    const children = this.#store.childSessions(sessionId).map(keep);
    this.#store.delete(sessionId);
    this.#prune();
    this.#items.set(sessionId, { summary, entries, children, deletedAt: this.#clock() });
    while (this.#items.size > this.#max) this.#items.delete(this.#items.keys().next().value!);
  }

  restore(sessionId: string): SessionSummary {
    this.#prune();
    const item = this.#items.get(sessionId);
    if (!item) throw new AmberError('not_found', 'That conversation can no longer be restored: undo is kept for a few minutes only.');
    const put = ({ summary, entries }: Kept) =>
      this.#store.importSession({
        id: summary.id,
        title: summary.title,
        cwd: summary.cwd,
        createdAt: summary.createdAt,
        entries,
        leafId: summary.leafId,
        ...(summary.parent ? { parent: summary.parent } : {}),
      });
    const restored = put(item);
    // Its task results name their children's conversations: those come back too, linked as before.
    for (const child of item.children) put(child);
    this.#items.delete(sessionId);
    return restored;
  }

  #prune(): void {
    const cutoff = this.#clock() - this.#keepMs;
    for (const [id, item] of this.#items) if (item.deletedAt < cutoff) this.#items.delete(id);
  }
}
