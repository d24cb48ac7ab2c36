// Appends do not rewrite their session's row each time: between writes of the row (a preview or title
// change, a branch, every 64 appends), the leaf, message count and updated time are derived from the
// entries appended since. What a reader sees, in this store, another one or after a restart, is the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';

let dir: string;
let file: string;
const opened: SessionStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-head-'));
  file = join(dir, 'amber.db');
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(clock?: () => number): SessionStore {
  const store = SessionStore.open(file, clock ? { clock } : {});
  opened.push(store);
  return store;
}

function storedRow(sessionId: string): { leaf_id: string | null; message_count: number } {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT leaf_id, message_count FROM sessions WHERE id = ?').get(sessionId) as { leaf_id: string | null; message_count: number };
  } finally {
    db.close();
  }
}

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });
const label = (targetId: string): EntryInput => ({ type: 'label', targetId, label: 'x' });

test('appends leave the row as it was until the stride, and every reader derives the same summary', () => {
  let now = 1_000;
  const store = open(() => ++now);
  const s = store.create({ title: 'derived' });
  const first = store.append(s.id, user('first')).id; // the preview: the row is written
  const ids = [first];
  for (let i = 0; i < 10; i++) ids.push(store.append(s.id, i % 2 ? user(`u${i}`) : label(first)).id);
  // The row still names the first entry; the ten appends after it are found by following them.
  expect(storedRow(s.id)).toEqual({ leaf_id: first, message_count: 1 });
  const expected = { leafId: ids.at(-1), messageCount: 6, updatedAt: now, preview: 'first', title: 'derived' };
  expect(store.get(s.id)).toMatchObject(expected);
  expect(open().get(s.id)).toMatchObject(expected);
  expect(open().leaf(s.id)).toBe(ids.at(-1));
  expect(
    open()
      .list()
      .find((x) => x.id === s.id),
  ).toMatchObject(expected);

  // The 64th append since the row was written writes it again.
  for (let i = 0; i < 53; i++) store.append(s.id, user(`more ${i}`));
  expect(storedRow(s.id)).toEqual({ leaf_id: first, message_count: 1 });
  const last = store.append(s.id, user('the 64th')).id;
  expect(storedRow(s.id)).toEqual({ leaf_id: last, message_count: 60 });
  expect(open().get(s.id)).toMatchObject({ leafId: last, messageCount: 60 });
});

test('a branch to an entry that already has children stays there after a restart, and the next append forks from it', () => {
  const store = open();
  const s = store.create();
  const a = store.append(s.id, user('a')).id;
  const b = store.append(s.id, user('b')).id;
  store.append(s.id, user('c'));
  store.branch(s.id, a);
  expect(open().leaf(s.id)).toBe(a);
  const fork = open().append(s.id, user('b, again'));
  expect(fork.parentId).toBe(a);
  expect(open().leaf(s.id)).toBe(fork.id);
  expect(open().children(s.id, a)).toEqual([b, fork.id]);
  expect(open().get(s.id).messageCount).toBe(4);
});

test('a session whose newest entries are deleted with another session keeps its leaf when it grows again', () => {
  const store = open();
  const kept = store.create();
  const root = store.append(kept.id, user('kept')).id;
  const gone = store.create();
  for (let i = 0; i < 5; i++) store.append(gone.id, user(`gone ${i}`));
  store.delete(gone.id);
  // Row ids freed at the top of the table are used again; the kept session's head must not skip them.
  const next = open().append(kept.id, label(root));
  expect(open().leaf(kept.id)).toBe(next.id);
  expect(
    open()
      .path(kept.id)
      .map((e) => e.id),
  ).toEqual([root, next.id]);
});

test("a list after another connection appended shows that connection's appends, not the head this store kept", () => {
  const mine = open();
  const other = open();
  const s = mine.create({ title: 'shared' });
  mine.append(s.id, user('mine'));
  expect(mine.list().find((x) => x.id === s.id)).toMatchObject({ messageCount: 1 });
  const theirs = other.append(s.id, user('theirs')).id;
  // The row was not rewritten by that append: the list derives it, once it knows its kept head is stale.
  expect(storedRow(s.id).message_count).toBe(1);
  expect(mine.list().find((x) => x.id === s.id)).toMatchObject({ leafId: theirs, messageCount: 2 });
  expect(mine.append(s.id, user('mine again')).parentId).toBe(theirs);
});
