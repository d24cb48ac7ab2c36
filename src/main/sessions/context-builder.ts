import { type Entry, isAssistant, type Message, type ModelContext } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import { ChainVerifier, integrityOf, type PathMark, type VerifiedRows } from './chain-verifier.ts';
import { type EntryRow, parseEntryRow, unverifiedEntryOf } from './entry-row.ts';

/** The model and thinking level a branch has chosen (its newest model and thinking level changes). */
export type BranchState = Pick<ModelContext, 'model' | 'thinkingLevel'>;

/** What the builder reads from the store: rows only, SQL stays in the store. */
export interface ContextRows {
  /** From `id` up toward the root, nearest first, read lazily (a walk stops early). */
  walkUp(sessionId: string, id: string): Iterable<EntryRow>;
  /** The stored hash of an entry ('' when there is none). */
  hashOf(sessionId: string, id: string): string;
  entry(sessionId: string, id: string): Entry;
  /** The session's verified path mark, if it has one. */
  pathMark(sessionId: string): PathMark | null;
}

/** The branch state named by a row's model and thinking references. */
export function branchStateOf(refs: { model_ref: string | null; thinking_ref: string | null } | null, entry: (id: string) => Entry): BranchState {
  const modelEntry = refs?.model_ref ? entry(refs.model_ref) : null;
  const thinkingEntry = refs?.thinking_ref ? entry(refs.thinking_ref) : null;
  return {
    model: modelEntry?.type === 'model_change' ? { provider: modelEntry.provider, modelId: modelEntry.modelId } : null,
    thinkingLevel: thinkingEntry?.type === 'thinking_level_change' ? thinkingEntry.thinkingLevel : null,
  };
}

/**
 * What the last context walk of a session found, kept so that the next build (a run builds one every turn)
 * walks only the entries appended below `leaf` since. Trusted only while no other connection has committed.
 */
interface ContextWalk {
  leaf: string;
  /** Newer than the compaction (or all, without one), nearest first. */
  after: Entry[];
  /** From the compaction's first kept entry up to it, nearest first. */
  kept: Entry[];
  compaction: Extract<Entry, { type: 'compaction' }> | null;
  /** Entries on the walked path found changed. */
  changed: string[];
}

/** A row a context walk read, with its entry, and whether that entry was checked against the schema yet. */
interface Walked {
  row: EntryRow;
  entry: Entry;
  checked: boolean;
}

/** Sessions whose last context walk is kept (a few open conversations). */
const KEPT_WALKS = 16;
/** Parsed context entries kept in memory (about the context of a few long sessions). */
const PARSED_CONTEXT_LIMIT = 50_000;

/** Messages a failed or aborted reply leaves in the tree are never sent to a model again. */
function reachesModel(message: Message): boolean {
  if (!isAssistant(message)) return true;
  const stop = message.stopReason;
  return stop !== 'error' && stop !== 'aborted';
}

function toMessage(e: Entry): Message {
  switch (e.type) {
    case 'message':
      return e.message;
    case 'compaction':
      return { role: 'user', content: `The conversation so far, summarised:\n\n${e.summary}` };
    case 'branch_summary':
      return { role: 'user', content: `A branch explored earlier, summarised:\n\n${e.summary}` };
    case 'custom_message':
      return { role: 'user', content: e.content };
    default:
      throw new AmberError('internal', `Entry type ${e.type} does not reach the model.`);
  }
}

/**
 * What reaches the model: the path from a leaf cut at the newest compaction on it (its summary, then the
 * entries from its first kept entry on), failed replies left out, every walked row's hash verified. Keeps
 * parsed entries, matched hashes and each session's last walk between builds; the store drops the walks
 * whenever another connection commits.
 */
export class ContextBuilder {
  /**
   * Context entries as parsed, by id, with the exact payload each was parsed from. A run rebuilds its
   * context every turn, and parsing every payload of the path again was most of that cost; a payload that
   * differs in any byte is parsed anew. Callers must treat context entries as read-only: they are shared.
   */
  readonly #parsed = new Map<string, { payload: string; entry: Entry }>();
  /** Context rows whose hash matched, with the fields it covered (a match is not computed twice for the same bytes). */
  readonly #verified: VerifiedRows = new Map();
  /** Per session, its last context walk. */
  readonly #walks = new Map<string, ContextWalk>();

  /** Forgets every kept walk (another connection committed) or one session's. */
  forgetWalks(sessionId?: string): void {
    if (sessionId === undefined) this.#walks.clear();
    else this.#walks.delete(sessionId);
  }

  /**
   * The context at `leaf` (an entry of the session). Walks no further than the compaction cut, and when the
   * session's last walk ended at an entry on this path with no compaction below it (a run's next turn), no
   * further than that entry: what is above it is as that walk read and verified it.
   */
  build(sessionId: string, leaf: string, rows: ContextRows): ModelContext {
    const verifier = new ChainVerifier(this.#verified, rows.pathMark(sessionId));
    const last = this.#walks.get(sessionId);

    // The walk reads each payload as JSON and finds the cut; the schema check waits until the walk's hashes are
    // known (see #checked), and the compaction found is then replaced by its checked entry.
    const walked: Walked[] = []; // nearest first
    let compaction: Extract<Entry, { type: 'compaction' }> | null = null;
    let reachedFirstKept = false;
    let earlier: ContextWalk | null = null;
    let leafRefs: { model_ref: string | null; thinking_ref: string | null } | null = null;
    for (const row of rows.walkUp(sessionId, leaf)) {
      leafRefs ??= row;
      verifier.push(row);
      if (compaction === null && row.id === last?.leaf) {
        // Its row lent its stored hash to the entry below it; it and everything above were verified then.
        earlier = last;
        break;
      }
      const read = this.#read(row);
      walked.push({ row, ...read });
      if (compaction === null && read.entry.type === 'compaction') compaction = read.entry;
      if (compaction !== null && read.entry.id === compaction.firstKeptEntryId) {
        reachedFirstKept = true;
        break; // ends the walk: nothing above the cut is read
      }
    }
    const integrity = integrityOf(earlier ? [...verifier.changed, ...earlier.changed] : verifier.finish((id) => rows.hashOf(sessionId, id)));
    const checked = this.#checked(sessionId, walked, verifier, integrity.ok, rows);

    let after: Entry[] = []; // newer than the compaction, nearest first
    let kept: Entry[] = []; // from the compaction's first kept entry up to it, nearest first
    let pastCompaction = false;
    for (const entry of checked) {
      if (!pastCompaction) {
        if (entry.type === 'compaction') {
          pastCompaction = true;
          compaction = entry;
        } else after.push(entry);
      } else if (entry.type !== 'compaction') kept.push(entry);
    }
    if (earlier) {
      after = [...after, ...earlier.after];
      kept = earlier.kept;
      compaction = earlier.compaction;
    } else if (compaction !== null && !reachedFirstKept) {
      throw new AmberError('internal', `Compaction ${compaction.id} keeps entry ${compaction.firstKeptEntryId}, which is not on its path.`);
    }
    this.#walks.delete(sessionId);
    if (this.#walks.size >= KEPT_WALKS) this.#walks.delete(this.#walks.keys().next().value!);
    this.#walks.set(sessionId, { leaf, after, kept, compaction, changed: integrity.changed });

    const entries: Entry[] = compaction !== null ? [compaction] : [];
    for (const entry of [...kept.toReversed(), ...after.toReversed()]) {
      if (entry.type === 'message' && !reachesModel(entry.message)) continue;
      if (entry.type === 'message' || entry.type === 'custom_message' || entry.type === 'branch_summary') entries.push(entry);
    }
    const state = branchStateOf(leafRefs, (id) => rows.entry(sessionId, id));
    return { leafId: leaf, entries, messages: entries.map(toMessage), ...state, integrity };
  }

  /** A walked row's entry: as parsed before (the same bytes), or read unchecked (else checked in full at once). */
  #read(row: EntryRow): { entry: Entry; checked: boolean } {
    const known = this.#parsed.get(row.id);
    if (known && known.payload === row.payload) return { entry: known.entry, checked: true };
    const read = unverifiedEntryOf(row);
    // The walk reads its cut from a compaction: one that does not name its first kept entry is checked at once.
    if (!read.checked && read.entry.type === 'compaction' && typeof read.entry.firstKeptEntryId !== 'string')
      return { entry: parseEntryRow(row), checked: true };
    if (read.checked) this.#remember(row, read.entry);
    return read;
  }

  /**
   * The walked entries, nearest first, each one checked. Rows read unchecked are taken as they are only when
   * every walked row's stored hash matches its fields under its parent's stored hash (Amber stored them so,
   * after checking each on write), rows at and above the verified path mark included, which the walk itself
   * takes as verified: a row another program changed, even with the hash its fields give, leaves a row that
   * does not match (its own or its child's). Otherwise each is checked against the schema in full, and one
   * that fails it refuses the whole context.
   */
  #checked(sessionId: string, walked: Walked[], verifier: ChainVerifier, intactWalk: boolean, rows: ContextRows): Entry[] {
    const vouched =
      intactWalk &&
      walked.some((w) => !w.checked) &&
      walked.every(({ row }, i) => {
        if (verifier.intact.has(row.id)) return true;
        const parentHash = row.parent_id === null ? '' : (walked[i + 1]?.row.hash ?? rows.hashOf(sessionId, row.parent_id));
        return verifier.matches(parentHash, row);
      });
    return walked.map(({ row, entry, checked }) => {
      if (checked) return entry;
      const parsed = vouched ? entry : parseEntryRow(row);
      this.#remember(row, parsed);
      return parsed;
    });
  }

  #remember(row: EntryRow, entry: Entry): void {
    if (this.#parsed.size >= PARSED_CONTEXT_LIMIT) this.#parsed.clear();
    this.#parsed.set(row.id, { payload: row.payload, entry });
  }
}
