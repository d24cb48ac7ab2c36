// An append builds on what the store kept from its own last write to the session (the leaf and its stored
// fields) instead of reading them again, but only while no other connection has committed since: a second
// store, another process or another program writing the same file makes the next append read them anew.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';

let dir: string;
let file: string;
let mine: SessionStore;
let other: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-append-head-'));
  file = join(dir, 'amber.db');
  mine = SessionStore.open(file);
  other = SessionStore.open(file);
});

afterEach(() => {
  mine.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });

test('appends in a row each go under the one before, with a valid chain and the first user text as the preview', () => {
  const s = mine.create();
  const ids = ['one', 'two', 'three'].map((t) => mine.append(s.id, user(t)).id);
  expect(mine.path(s.id).map((e) => e.parentId)).toEqual([null, ids[0], ids[1]]);
  expect(mine.get(s.id)).toMatchObject({ leafId: ids[2], messageCount: 3, preview: 'one' });
  expect(mine.check(s.id)).toMatchObject({ ok: true, entries: 3 });
});

test('an append after another store appended to the same session goes under that store’s entry', () => {
  const s = mine.create();
  const first = mine.append(s.id, user('mine 1'));
  const theirs = other.append(s.id, user('theirs'));
  expect(theirs.parentId).toBe(first.id);
  const next = mine.append(s.id, user('mine 2'));
  expect(next.parentId).toBe(theirs.id);
  expect(mine.get(s.id)).toMatchObject({ leafId: next.id, messageCount: 3 });
  expect(mine.check(s.id).ok).toBe(true);
});

test('an append after another store moved the leaf forks from where that store moved it', () => {
  const s = mine.create();
  const root = mine.append(s.id, user('root'));
  mine.append(s.id, user('left'));
  other.branch(s.id, root.id);
  expect(mine.append(s.id, user('right')).parentId).toBe(root.id);
  expect(mine.children(s.id, root.id)).toHaveLength(2);
});

test('an append after another store deleted the session says it does not exist, and writes nothing', () => {
  const s = mine.create();
  mine.append(s.id, user('one'));
  other.delete(s.id);
  expect(() => mine.append(s.id, user('two'))).toThrow(/does not exist/);
  expect(other.count()).toBe(0);
});

test('after another program rewrote the leaf’s hash, the next read names it and appends are refused', () => {
  const s = mine.create();
  const a = mine.append(s.id, user('one'));
  const b = mine.append(s.id, user('two'));
  const db = new Database(file);
  try {
    expect(db.prepare('UPDATE entries SET hash = ? WHERE id = ?').run('0123456789abcdef', b.id).changes).toBe(1);
  } finally {
    db.close();
  }
  // The store had verified b's path: the tampered row is only found by a walk, which the next read does.
  expect(mine.context(s.id).integrity).toEqual({ ok: false, changed: [b.id] });
  expect(() => mine.append(s.id, user('three'))).toThrow(/read-only/);
  expect(mine.path(s.id).map((e) => e.id)).toEqual([a.id, b.id]);
});

test('a refused append leaves the next one building on the real leaf', () => {
  const s = mine.create();
  const a = mine.append(s.id, user('one'));
  expect(() => mine.append(s.id, { type: 'compaction', summary: 'x', firstKeptEntryId: 'nowhere', tokensBefore: 1 })).toThrow(/not on its branch/);
  expect(mine.append(s.id, user('two')).parentId).toBe(a.id);
  expect(mine.check(s.id).ok).toBe(true);
});
