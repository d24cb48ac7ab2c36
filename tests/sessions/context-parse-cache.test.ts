// A run rebuilds its context every turn: the store parses each stored payload once and reuses the parsed
// entry while the row holds the same bytes; a row's hash check is computed again whenever any field it covers
// (or its parent's hash) differs from the last time it matched. A build walks only what was appended below
// the last walk's leaf, and only while no other connection has committed: any outside write (another
// program changing a row) makes the next build walk and verify the whole path again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';

let dir: string;
let file: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-context-cache-'));
  file = join(dir, 'amber.db');
  store = SessionStore.open(file);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });
const reply = (text: string): EntryInput => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' } });

function outside(sql: string, ...params: unknown[]): void {
  const db = new Database(file);
  try {
    expect(db.prepare(sql).run(...params).changes).toBe(1);
  } finally {
    db.close();
  }
}

function threeMessages(): { sessionId: string; ids: string[] } {
  const session = store.create();
  const ids = [user('u1'), reply('a1'), user('u2')].map((input) => store.append(session.id, input).id);
  return { sessionId: session.id, ids };
}

test('a context built again reuses the entries parsed for the same stored payloads, and parses what was appended since', () => {
  const { sessionId } = threeMessages();
  const first = store.context(sessionId);
  store.append(sessionId, reply('a2'));
  const second = store.context(sessionId);
  expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  for (let i = 0; i < 3; i++) expect(second.entries[i]).toBe(first.entries[i]);
  expect(second.messages[3]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'a2' }] });
  expect(second.integrity).toEqual({ ok: true, changed: [] });
});

test('a payload changed in place by another program after a build is read anew and named as changed, not served from memory', () => {
  const { sessionId, ids } = threeMessages();
  expect(store.context(sessionId).messages[0]).toMatchObject({ content: 'u1' });
  const db = new Database(file);
  try {
    const info = db.prepare(`UPDATE entries SET payload = json_set(payload, '$.message.content', ?) WHERE id = ?`).run('u1, but different', ids[0]);
    expect(info.changes).toBe(1);
  } finally {
    db.close();
  }
  const after = store.context(sessionId);
  expect(after.messages[0]).toMatchObject({ content: 'u1, but different' });
  expect(after.integrity).toEqual({ ok: false, changed: [ids[0]] });
});

test('a hash overwritten by another program after a build breaks its entry and its child on the next build', () => {
  const { sessionId, ids } = threeMessages();
  expect(store.context(sessionId).integrity.ok).toBe(true);
  outside('UPDATE entries SET hash = ? WHERE id = ?', '0123456789abcdef', ids[1]);
  expect(store.context(sessionId).integrity).toEqual({ ok: false, changed: [ids[2], ids[1]] });
});

test('a build after this store appended gives the earlier walk’s entries then the new ones, in path order', () => {
  const { sessionId } = threeMessages();
  const first = store.context(sessionId);
  store.append(sessionId, reply('a2'));
  store.append(sessionId, user('u3'));
  const second = store.context(sessionId);
  expect(second.entries.map((e) => e.id)).toEqual([
    ...first.entries.map((e) => e.id),
    ...store
      .path(sessionId)
      .slice(3)
      .map((e) => e.id),
  ]);
  expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  expect(second.integrity).toEqual({ ok: true, changed: [] });
});

test('a row above the last walk changed by another program after it is still named by the next build, after appends of this store', () => {
  const { sessionId, ids } = threeMessages();
  expect(store.context(sessionId).integrity.ok).toBe(true);
  outside(`UPDATE entries SET payload = json_set(payload, '$.message.content', ?) WHERE id = ?`, 'u1, but different', ids[0]);
  store.append(sessionId, reply('a2'));
  const after = store.context(sessionId);
  expect(after.messages[0]).toMatchObject({ content: 'u1, but different' });
  expect(after.integrity).toEqual({ ok: false, changed: [ids[0]] });
});
