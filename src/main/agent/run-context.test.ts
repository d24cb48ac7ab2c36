import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { EntryInput, ModelContext } from '../../shared/sessions/index.ts';
import { SessionStore } from '../sessions/index.ts';
import { RunContext, type RunContextStore } from './run-context.ts';

let dir: string;
let store: SessionStore;
let sessionId: string;
let builds: number;
let counted: RunContextStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-run-context-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  sessionId = store.create({ title: 'run' }).id;
  store.append(sessionId, { type: 'model_change', provider: 'p', modelId: 'm' });
  store.append(sessionId, { type: 'message', message: { role: 'user', content: 'go', timestamp: 1 } });
  builds = 0;
  counted = {
    leaf: (id) => store.leaf(id),
    context: (id, leaf) => {
      builds++;
      return store.context(id, leaf);
    },
  };
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the model would be sent, compared by value. */
const sent = (c: ModelContext) => ({ leafId: c.leafId, ids: c.entries.map((e) => e.id), messages: c.messages, model: c.model, thinkingLevel: c.thinkingLevel });

const call = (id: string): EntryInput => ({
  type: 'message',
  message: { role: 'assistant', content: [{ type: 'toolCall', id, name: 'read', arguments: { path: 'a' } }], stopReason: 'toolUse', timestamp: 2 },
});
const result = (id: string): EntryInput => ({
  type: 'message',
  message: { role: 'toolResult', toolCallId: id, toolName: 'read', content: [{ type: 'text', text: 'a' }], isError: false, timestamp: 3 },
});

test("the run's own appends keep the context the store would build, without building it again", () => {
  const context = new RunContext(counted, sessionId);
  context.current();
  const appends: EntryInput[] = [
    call('c1'),
    result('c1'),
    { type: 'message', message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: 'failed', timestamp: 4 } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'cut' }], stopReason: 'aborted', timestamp: 5 } },
    { type: 'custom_message', customType: 'amber.recovery', content: 'try another way', display: true },
    { type: 'custom', customType: 'amber.confirm', data: { answer: 'done' } },
    { type: 'label', targetId: store.leaf(sessionId)!, label: 'here' },
    { type: 'session_info', name: 'named' },
    { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'and then' }], timestamp: 6 } },
  ];
  for (const input of appends) {
    context.appended(store.append(sessionId, input));
    expect(sent(context.current())).toEqual(sent(store.context(sessionId)));
  }
  expect(builds).toBe(1);
});

test('a leaf moved by another writer, a compaction or a model change makes the next read build from the store', () => {
  const context = new RunContext(counted, sessionId);
  const first = store.leaf(sessionId)!;
  context.appended(store.append(sessionId, call('c1')));
  expect(builds).toBe(0); // nothing is kept before the first read
  context.current();
  context.appended(store.append(sessionId, result('c1')));

  // Someone else appends under the leaf: the run's context includes it.
  store.append(sessionId, { type: 'message', message: { role: 'user', content: 'steer from elsewhere', timestamp: 7 } });
  expect(sent(context.current())).toEqual(sent(store.context(sessionId)));
  expect(builds).toBe(2);

  // Someone else branches: the run follows the leaf.
  store.branch(sessionId, first);
  expect(sent(context.current())).toEqual(sent(store.context(sessionId)));
  expect(context.current().messages).toHaveLength(1);
  expect(builds).toBe(3);

  context.appended(store.append(sessionId, { type: 'thinking_level_change', thinkingLevel: 'high' }));
  expect(context.current().thinkingLevel).toBe('high');
  expect(builds).toBe(4);

  context.appended(store.append(sessionId, call('c2')));
  const kept = store.leaf(sessionId)!;
  context.appended(store.append(sessionId, result('c2')));
  context.appended(store.append(sessionId, { type: 'compaction', summary: 'so far', firstKeptEntryId: kept, tokensBefore: 100 }));
  expect(sent(context.current())).toEqual(sent(store.context(sessionId)));
  expect(context.current().entries[0]?.type).toBe('compaction');
  expect(builds).toBe(5);
});

test("an entry that does not hang under the run's leaf is not added: the next read builds from the store", () => {
  const context = new RunContext(counted, sessionId);
  context.current();
  const elsewhere = store.append(sessionId, call('c1'));
  context.appended(store.append(sessionId, result('c1')));
  expect(elsewhere.parentId).not.toBeNull();
  expect(sent(context.current())).toEqual(sent(store.context(sessionId)));
  expect(builds).toBe(2);
});
