// The sidebar's "N messages" (the session summary's messageCount, kept in the session's row) and the tree's
// summary count the same things: the user's and the model's messages in every branch, tool results not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../../src/main/sessions/index.ts';
import { layoutTree, treeSummary } from '../../src/renderer/branches/tree-layout.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';

let dir: string;
const opened: SessionStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-count-'));
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): SessionStore {
  const store = SessionStore.open(join(dir, 'amber.db'));
  opened.push(store);
  return store;
}

const user = (text: string): EntryInput => ({ type: 'message', message: { role: 'user', content: text } });
const reply = (text: string): EntryInput => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' } });
const callsTool = (id: string): EntryInput => ({
  type: 'message',
  message: { role: 'assistant', content: [{ type: 'toolCall', id, name: 'read', arguments: { path: 'a.txt' } }], stopReason: 'toolUse' },
});
const result = (id: string): EntryInput => ({
  type: 'message',
  message: { role: 'toolResult', toolCallId: id, toolName: 'read', content: [{ type: 'text', text: 'contents' }], isError: false },
});

function treeCount(store: SessionStore, sessionId: string): string {
  return treeSummary(layoutTree(store.tree(sessionId), store.get(sessionId).leafId));
}

test('the sidebar and the tree count the same messages: both branches, tool results and summaries left out', () => {
  const store = open();
  const s = store.create({ title: 'counted' });
  const first = store.append(s.id, user('read a.txt')).id;
  store.append(s.id, callsTool('c1'));
  store.append(s.id, result('c1'));
  store.append(s.id, callsTool('c2'));
  store.append(s.id, result('c2'));
  const answered = store.append(s.id, reply('It says contents.')).id;
  store.append(s.id, { type: 'label', targetId: answered, label: 'kept' });
  // A second version of the first answer: a branch from the question.
  store.branch(s.id, first);
  store.append(s.id, reply('Another answer.'));
  store.append(s.id, user('and then?'));
  store.append(s.id, { type: 'compaction', summary: 'the question and its answers', firstKeptEntryId: first, tokensBefore: 100 });

  // user, three assistant messages on the first branch, the other version, one more question.
  expect(store.get(s.id).messageCount).toBe(6);
  expect(treeCount(store, s.id)).toBe('6 messages · 1 branch point');
  // Another reader (a restart) derives the same count from the file.
  const reopened = open();
  expect(reopened.get(s.id).messageCount).toBe(6);
  expect(reopened.list().find((x) => x.id === s.id)?.messageCount).toBe(6);
});

test('an imported conversation counts its messages the same way', () => {
  const store = open();
  const s = store.create({ title: 'source' });
  store.append(s.id, user('q'));
  store.append(s.id, callsTool('c1'));
  store.append(s.id, result('c1'));
  store.append(s.id, reply('a'));
  const copy = store.importSession({ title: 'copy', cwd: null, leafId: store.get(s.id).leafId, entries: store.path(s.id) });
  expect(copy.messageCount).toBe(3);
  expect(treeCount(store, copy.id)).toBe('3 messages');
});

test('a data file whose counts still include tool results is counted again when it is opened', () => {
  const store = open();
  const s = store.create({ title: 'older' });
  store.append(s.id, user('q'));
  for (let i = 0; i < 3; i++) {
    store.append(s.id, callsTool(`c${i}`));
    store.append(s.id, result(`c${i}`));
  }
  const last = store.append(s.id, reply('a')).id;
  store.branch(s.id, last); // writes the row: every entry is behind its mark
  store.close();
  opened.length = 0;
  // As the schema before it wrote the row: every message entry up to the row's mark, tool results too.
  const db = new Database(join(dir, 'amber.db'));
  db.prepare(
    `UPDATE sessions SET message_count = (SELECT count(*) FROM entries e WHERE e.session_id = sessions.id AND e.type = 'message' AND e.seq <= sessions.leaf_mark)`,
  ).run();
  expect(db.prepare('SELECT message_count FROM sessions').pluck().get()).toBe(8);
  db.pragma('user_version = 8');
  db.close();
  expect(open().get(s.id).messageCount).toBe(5);
});
