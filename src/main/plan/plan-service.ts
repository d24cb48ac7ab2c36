import { type PlanItems, type PlanView, PLAN_ENTRY_TYPE, planOfEntry } from '../../shared/plan/index.ts';
import { DisposableStore } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type { SessionStore } from '../sessions/index.ts';

/** What the plan reads and writes of the sessions. */
export type PlanStore = Pick<SessionStore, 'append' | 'leaf' | 'entry' | 'children' | 'newestCustomOnPath' | 'onDidMoveLeaf' | 'onDidDelete'>;

export interface PlanServiceOptions {
  store: PlanStore;
}

interface Known {
  /** The leaf this view holds for. */
  leafId: string | null;
  view: PlanView;
}

/**
 * The plan (a short checklist the agent keeps with the todo tool) of each conversation's current branch. It
 * is kept as custom entries of the session, so a branch has the plan of its own path: the newest plan entry
 * between the leaf and the root. Owns the plan's change event: it fires when a plan is written and when the
 * leaf moves to a branch whose plan differs (an edit, a branch switch) — for the conversations whose plan was
 * read, which are the ones a window shows.
 */
export class PlanService {
  readonly #store: PlanStore;
  readonly #known = new Map<string, Known>();
  /** The conversation a plan is being written to (its append's leaf move is not read back). */
  #writing: string | null = null;
  readonly #changes = new Emitter<PlanView>((e) => console.error('A plan listener failed', e));
  readonly #subscriptions = new DisposableStore();
  /** The plan of a conversation's branch changed, with the new one. */
  readonly onDidChange: Event<PlanView> = this.#changes.event;

  constructor(options: PlanServiceOptions) {
    this.#store = options.store;
    this.#subscriptions.add(this.#store.onDidMoveLeaf(({ sessionId, leafId }) => this.#leafMoved(sessionId, leafId)));
    this.#subscriptions.add(this.#store.onDidDelete(({ sessionId }) => this.#known.delete(sessionId)));
  }

  /** The plan of the conversation's current branch (empty, with entryId null, when it has none). */
  current(sessionId: string): PlanView {
    const leafId = this.#store.leaf(sessionId);
    const known = this.#known.get(sessionId);
    if (known && known.leafId === leafId) return known.view;
    const view = this.#read(sessionId);
    this.#known.set(sessionId, { leafId, view });
    return view;
  }

  /** Replaces the branch's plan with `items`: one entry appended under the leaf. Returns the new plan. */
  write(sessionId: string, items: PlanItems): PlanView {
    // The append moves the leaf: this write records and announces the plan itself, without reading it back.
    this.#writing = sessionId;
    let entryId: string;
    try {
      entryId = this.#store.append(sessionId, { type: 'custom', customType: PLAN_ENTRY_TYPE, data: { items } }).id;
    } finally {
      this.#writing = null;
    }
    const view: PlanView = { sessionId, items, entryId };
    this.#set(sessionId, entryId, view);
    return view;
  }

  dispose(): void {
    this.#subscriptions.dispose();
    this.#changes.dispose();
    this.#known.clear();
  }

  #leafMoved(sessionId: string, leafId: string | null): void {
    if (this.#writing === sessionId) return;
    // Only conversations whose plan was read (the ones a window shows) are followed; the others are read when asked.
    const known = this.#known.get(sessionId);
    if (!known) return;
    // An append under the known leaf keeps the branch's plan: plans are written through write(), which records
    // its own. One look at the known leaf's children, no payload read.
    if (leafId !== null && this.#store.children(sessionId, known.leafId).includes(leafId)) {
      known.leafId = leafId;
      return;
    }
    // Another branch: its own plan.
    this.#set(sessionId, leafId, this.#read(sessionId));
  }

  #set(sessionId: string, leafId: string | null, view: PlanView): void {
    const before = this.#known.get(sessionId)?.view;
    this.#known.set(sessionId, { leafId, view });
    if (before?.entryId !== view.entryId) this.#changes.fire(view);
  }

  /**
   * The newest plan entry between the leaf and the root, found by one walk of ids up the branch (see
   * SessionReader.newestCustomOnPath); one whose data does not read as a plan is passed over.
   */
  #read(sessionId: string): PlanView {
    let from = this.#store.leaf(sessionId);
    while (from !== null) {
      const found = this.#store.newestCustomOnPath(sessionId, PLAN_ENTRY_TYPE, from);
      if (!found) break;
      const items = this.#readable(sessionId, found.id);
      if (items) return { sessionId, items, entryId: found.id };
      from = found.parentId;
    }
    return { sessionId, items: [], entryId: null };
  }

  #readable(sessionId: string, entryId: string): PlanItems | null {
    try {
      return planOfEntry(this.#store.entry(sessionId, entryId));
    } catch {
      // An entry changed outside Amber reads as no plan; the conversation says it was changed.
      return null;
    }
  }
}
