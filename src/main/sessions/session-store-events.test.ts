import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { EntryInput, SessionSummary } from '../../shared/sessions/index.ts';
import { type LeafMove, SessionStore } from './session-store.ts';

let dir: string;
let store: SessionStore;
let heard: { created: SessionSummary[]; changed: SessionSummary[]; deleted: string[]; moved: LeafMove[] };

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-store-events-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  heard = { created: [], changed: [], deleted: [], moved: [] };
  store.onDidCreate((s) => heard.created.push(s));
  store.onDidChangeSummary((s) => heard.changed.push(s));
  store.onDidDelete(({ sessionId }) => heard.deleted.push(sessionId));
  store.onDidMoveLeaf((m) => heard.moved.push(m));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a created, renamed, moved-into and deleted session is announced once per change, with the committed summary', () => {
  const s = store.create({ title: 'Plans' });
  expect(heard.created).toEqual([s]);
  expect(store.rename(s.id, 'Trips')).toEqual(heard.changed.at(-1));
  expect(store.setCwd(s.id, '/tmp/x').cwd).toBe('/tmp/x');
  expect(heard.changed.map((c) => [c.title, c.cwd])).toEqual([
    ['Trips', null],
    ['Trips', '/tmp/x'],
  ]);
  store.delete(s.id);
  expect(heard.deleted).toEqual([s.id]);
  expect(heard.created).toHaveLength(1);
});

test('every append and branch moves the leaf once and pushes the new summary (count, preview, leaf)', () => {
  const s = store.create();
  const a = store.append(s.id, user('first question'));
  expect(heard.moved).toEqual([{ sessionId: s.id, leafId: a.id }]);
  expect(heard.changed.at(-1)).toMatchObject({ id: s.id, messageCount: 1, preview: 'first question', leafId: a.id });
  const [b, c] = store.appendMany(s.id, [user('second'), user('third')]);
  expect(heard.moved.at(-1)).toEqual({ sessionId: s.id, leafId: c!.id });
  expect(heard.moved).toHaveLength(2);
  expect(heard.changed.at(-1)).toMatchObject({ messageCount: 3, leafId: c!.id });
  store.branch(s.id, b!.id);
  expect(heard.moved.at(-1)).toEqual({ sessionId: s.id, leafId: b!.id });
  expect(heard.changed.at(-1)).toMatchObject({ leafId: b!.id });
  store.branch(s.id, null);
  expect(heard.moved).toHaveLength(4);
  expect(heard.moved.at(-1)).toEqual({ sessionId: s.id, leafId: null });
});

test('a refused write announces nothing, and a listener that throws neither fails nor undoes the write', () => {
  const s = store.create();
  heard.changed.length = 0;
  expect(() => store.branch(s.id, 'nope')).toThrow();
  expect(() => store.append(s.id, { type: 'label', targetId: 'nope' })).toThrow();
  expect(heard.moved).toEqual([]);
  expect(heard.changed).toEqual([]);
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    store.onDidMoveLeaf(() => {
      throw new Error('listener broke');
    });
    const e = store.append(s.id, user('kept'));
    expect(store.leaf(s.id)).toBe(e.id);
    expect(heard.moved.at(-1)).toEqual({ sessionId: s.id, leafId: e.id });
    expect(errors).toHaveLength(1);
  } finally {
    console.error = original;
  }
});

test('an imported session (a restore from the trash, a pi import) is announced as created', () => {
  const s = store.importSession({ title: 'Old', entries: [], leafId: null });
  expect(heard.created).toEqual([s]);
  expect(heard.moved).toEqual([]);
});
