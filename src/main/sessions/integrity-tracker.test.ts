import { expect, test } from 'vitest';
import type { ContextRows } from './context-builder.ts';
import { entryHash } from './entry-hash.ts';
import type { EntryRow } from './entry-row.ts';
import { IntegrityTracker } from './integrity-tracker.ts';

/** A straight path of `n` entries, root first, each hashed from its parent's as the store writes them. */
function chain(n: number): EntryRow[] {
  const rows: EntryRow[] = [];
  for (let i = 0; i < n; i++) {
    const parent = rows[i - 1] ?? null;
    const payload = `{"n":${i}}`;
    const id = `e${i}`;
    const hash = entryHash(parent?.hash ?? '', id, parent?.id ?? null, 'message', payload);
    rows.push({ seq: i + 1, id, parent_id: parent?.id ?? null, type: 'message', depth: i, model_ref: null, thinking_ref: null, payload, hash });
  }
  return rows;
}

/** Rows served nearest first from the leaf, counting how many the walk pulled. */
function served(rows: EntryRow[], markDepth: number | null) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = { pulled: 0 };
  const source: Pick<ContextRows, 'walkUp' | 'hashOf' | 'pathMark'> = {
    *walkUp(_sessionId, id) {
      for (let row = byId.get(id); row; row = row.parent_id === null ? undefined : byId.get(row.parent_id)) {
        seen.pulled++;
        yield row;
      }
    },
    hashOf: (_sessionId, id) => byId.get(id)?.hash ?? '',
    pathMark: () => (markDepth === null ? null : { id: rows[markDepth]!.id, hash: rows[markDepth]!.hash, depth: markDepth }),
  };
  return { source, seen };
}

test('verifying a leaf stops reading at the verified path mark, however long the path above it', () => {
  const rows = chain(5000);
  const { source, seen } = served(rows, 4990);
  const known = new IntegrityTracker(source).verified('s', 'e4999');
  expect(known.changed.size).toBe(0);
  expect(seen.pulled).toBe(10);

  // Without a mark the whole path is read (there is no compaction to stop at).
  const whole = served(rows, null);
  new IntegrityTracker(whole.source).verified('s', 'e4999');
  expect(whole.seen.pulled).toBe(5000);
});

test('a change below the mark is still found; one above it is left to a full check', () => {
  const rows = chain(300);
  rows[295] = { ...rows[295]!, payload: '{"n":"edited"}' };
  rows[100] = { ...rows[100]!, payload: '{"n":"edited too"}' };
  const { source } = served(rows, 250);
  expect([...new IntegrityTracker(source).verified('s', 'e299').changed]).toEqual(['e295']);
});
