// Checkpoints of a session's hashes: a path mark written as appends go deep, below which a context built
// after a restart verifies, and the newest entry an intact check covered, where `check --since-last` starts.
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
  dir = mkdtempSync(join(tmpdir(), 'amber-marks-'));
  file = join(dir, 'amber.db');
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): SessionStore {
  const store = SessionStore.open(file);
  opened.push(store);
  return store;
}

function outside(sql: string, ...params: unknown[]): void {
  const db = new Database(file);
  try {
    expect(db.prepare(sql).run(...params).changes).toBe(1);
  } finally {
    db.close();
  }
}

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });

function rewrite(id: string, text: string): void {
  outside(`UPDATE entries SET payload = json_set(payload, '$.message.content', ?) WHERE id = ?`, text, id);
}

/** A linear session of `n` user messages; returns their ids, oldest first. */
function linear(store: SessionStore, n: number): { sessionId: string; ids: string[] } {
  const s = store.create();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(store.append(s.id, user(`m${i}`)).id);
  return { sessionId: s.id, ids };
}

test('after a restart, a context trusts the path above the mark and verifies every entry below it', () => {
  const store = open();
  const { sessionId, ids } = linear(store, 300);
  store.close();
  // The mark sits at depth 256 (two strides of 128): a change above it is left to check, one below it is found.
  rewrite(ids[10]!, 'changed above the mark');
  rewrite(ids[280]!, 'changed below the mark');
  const reopened = open();
  expect(reopened.context(sessionId).integrity).toEqual({ ok: false, changed: [ids[280]] });
  expect(reopened.check(sessionId).changed).toEqual([ids[10], ids[280]]);
});

test('a short session has no mark: a change anywhere on its path is found by the first context after a restart', () => {
  const store = open();
  const { sessionId, ids } = linear(store, 100);
  store.close();
  rewrite(ids[0]!, 'changed at the root');
  expect(open().context(sessionId).integrity).toEqual({ ok: false, changed: [ids[0]] });
});

test('a mark whose entry was changed is not trusted: the walk goes on verifying above it', () => {
  const store = open();
  const { sessionId, ids } = linear(store, 300);
  store.close();
  rewrite(ids[256]!, 'the marked entry, changed');
  rewrite(ids[100]!, 'changed above the mark');
  const changed = open().context(sessionId).integrity.changed;
  expect(changed).toContain(ids[256]);
});

test('check --since-last verifies only entries newer than the last intact check, and reports progress', () => {
  const store = open();
  const { sessionId, ids } = linear(store, 50);
  expect(store.check(sessionId)).toEqual({ sessionId, entries: 50, ok: true, changed: [] });
  rewrite(ids[5]!, 'changed after the check');
  const more = [store.append(sessionId, user('later 1')).id, store.append(sessionId, user('later 2')).id];
  expect(store.check(sessionId, { sinceLast: true })).toEqual({ sessionId, entries: 2, ok: true, changed: [], sinceLast: true });
  const newest = store.append(sessionId, user('later 3')).id;
  rewrite(newest, 'changed after the second check');
  // Only the one newer entry is verified, and found changed; a full check finds the older change too.
  expect(store.check(sessionId, { sinceLast: true })).toEqual({ sessionId, entries: 1, ok: false, changed: [newest], sinceLast: true });
  expect(store.check(sessionId).changed).toEqual([ids[5], newest]);
  expect(more).toHaveLength(2);

  const reports: [number, number][] = [];
  const big = linear(store, 20_500);
  store.check(big.sessionId, { onProgress: (done, total) => reports.push([done, total]) });
  expect(reports).toEqual([
    [10_000, 20_500],
    [20_000, 20_500],
  ]);
});

test('branchState gives the branch’s model and thinking level, and names a missing entry', () => {
  const store = open();
  const s = store.create();
  expect(store.branchState(s.id)).toEqual({ model: null, thinkingLevel: null });
  const root = store.append(s.id, user('hi')).id;
  store.append(s.id, { type: 'model_change', provider: 'p', modelId: 'm1' });
  store.append(s.id, { type: 'thinking_level_change', thinkingLevel: 'high' });
  store.append(s.id, user('more'));
  expect(store.branchState(s.id)).toEqual({ model: { provider: 'p', modelId: 'm1' }, thinkingLevel: 'high' });
  expect(store.branchState(s.id)).toEqual({ model: store.context(s.id).model, thinkingLevel: store.context(s.id).thinkingLevel });
  expect(store.branchState(s.id, root)).toEqual({ model: null, thinkingLevel: null });
  expect(() => store.branchState(s.id, 'nowhere')).toThrow(/Entry nowhere is not in conversation/);
});
