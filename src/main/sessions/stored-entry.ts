import { Entry, type EntryInput, entryPreview, entryRole } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import { canonicalJson } from './canonical-json.ts';
import { checkedEntries } from './checked-entries.ts';
import { entryHash } from './entry-hash.ts';
import { describeZodError, type ParentRow } from './entry-row.ts';

/** The row an entry is stored as, ready for the insert statement. */
export interface StoredEntry {
  entry: Entry;
  /** What an entry appended under this one builds on. */
  row: ParentRow;
  preview: string;
  /** The insert statement's parameters. */
  params: Record<string, string | number | null>;
}

/**
 * Validates an entry appended under `parentId` (whose stored fields are `above`; null for a root) and
 * computes its stored form: canonical payload, chained hash, depth and the model and thinking references.
 */
export function storedEntry(
  sessionId: string,
  input: EntryInput,
  parentId: string | null,
  above: ParentRow | null,
  ids: { newId: () => string; now: number },
): StoredEntry {
  // An entry the schema already gave, under the same parent (an import's, checked as its file was read), is stored as it is.
  const parsed =
    checkedEntries.has(input) && (input as Entry).parentId === parentId
      ? { success: true as const, data: input as Entry }
      : Entry.safeParse({ ...input, id: input.id ?? ids.newId(), parentId, timestamp: input.timestamp ?? new Date(ids.now).toISOString() });
  if (!parsed.success) {
    const type = (input as { type?: unknown }).type;
    throw new AmberError('invalid_input', `Refused a ${typeof type === 'string' ? `'${type}'` : 'typeless'} entry: ${describeZodError(parsed.error)}`);
  }
  const entry = parsed.data;
  if (parentId !== null && !above)
    throw new AmberError('invalid_input', `Refused entry ${entry.id}: its parent ${parentId} is not in conversation ${sessionId}.`);
  const parent: ParentRow = above ?? { depth: -1, model_ref: null, thinking_ref: null, hash: '' };
  const preview = entryPreview(entry);
  // Stored canonical, so that verifying it hashes the stored text as it is.
  const payload = canonicalJson(entry);
  const row: ParentRow = {
    depth: parent.depth + 1,
    model_ref: entry.type === 'model_change' ? entry.id : parent.model_ref,
    thinking_ref: entry.type === 'thinking_level_change' ? entry.id : parent.thinking_ref,
    hash: entryHash(parent.hash, entry.id, parentId, entry.type, payload),
  };
  const params = {
    session: sessionId,
    id: entry.id,
    parent: parentId,
    type: entry.type,
    role: entryRole(entry),
    preview,
    target: entry.type === 'label' ? entry.targetId : null,
    depth: row.depth,
    modelRef: row.model_ref,
    thinkingRef: row.thinking_ref,
    payload,
    hash: row.hash,
    now: ids.now,
  };
  return { entry, row, preview, params };
}
