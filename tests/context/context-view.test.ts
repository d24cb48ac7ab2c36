// The Context view: what the model sees now on a branch (kept, masked, repeated and summarised messages with
// token counts) read over the API, and "restore", which branches back from the entry before a compaction.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { ContextView } from '../../src/shared/api/index.ts';
import type { ProviderEvent, ProviderRequest, StreamFn } from '../../src/shared/providers/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let under: AppUnderTest | null = null;
afterEach(async () => {
  await under?.close();
  under = null;
});

const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function open(requests: ProviderRequest[] = []) {
  const stream: StreamFn = async function* (request): AsyncGenerator<ProviderEvent> {
    requests.push(request);
    yield {
      type: 'done',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Earlier: the user read three files.' }], stopReason: 'stop', model: 'm', usage: zero },
    };
  };
  under = openApp({
    prefix: 'amber-context-view-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: () => ({
      defaultModel: { provider: 'fake', modelId: 'm' },
      resolveProvider: () => ({
        stream,
        model: { id: 'm', contextWindow: 8000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      }),
    }),
  });
  return under;
}

/** A user question, then `reads` calls of `read` each answered with 2,000 characters, then an answer. */
function history(reads: { path: string; text: string }[]): EntryInput[] {
  const out: EntryInput[] = [{ type: 'message', message: { role: 'user', content: 'Read the files, please.' } }];
  reads.forEach((r, i) => {
    out.push({
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: `c${i}`, name: 'read', arguments: { path: r.path } }],
        stopReason: 'toolUse',
        usage: zero,
      },
    });
    out.push({
      type: 'message',
      message: { role: 'toolResult', toolCallId: `c${i}`, toolName: 'read', content: [{ type: 'text', text: r.text }], isError: false },
    });
  });
  out.push({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Done reading.' }], stopReason: 'stop', usage: zero } });
  return out;
}

test('the view lists each message as the next request carries it: old tool output masked, an unchanged re-read pointing at the later one, tokens as stored and as sent', async () => {
  const u = open();
  const { app } = u;
  // Each result is 500 to 600 tokens: only the newest stays whole.
  app.settings.set('context.maskAfterTokens', 500);
  app.settings.set('context.maskBatchTokens', 250);
  const s = app.sessions.create({ title: 'Reads', cwd: join(u.dir, 'ws') });
  const a = 'alpha '.repeat(400);
  app.sessions.appendMany(
    s.id,
    history([
      { path: 'a.txt', text: a },
      { path: 'b.txt', text: 'beta '.repeat(400) },
      { path: 'a.txt', text: a },
      { path: 'c.txt', text: 'gamma '.repeat(400) },
    ]),
  );
  const view = await u.call<ContextView>('context.view', { sessionId: s.id });
  expect(view.model).toEqual({ provider: 'fake', modelId: 'm' });
  // The window the run works against (the compaction trigger's).
  expect(view.window).toBe(8000);
  expect(view.compaction).toBeNull();
  const results = view.items.filter((i) => i.role === 'toolResult');
  expect(results.map((r) => r.state)).toEqual(['repeat', 'masked', 'masked', 'kept']);
  expect(results.every((r) => r.toolName === 'read')).toBe(true);
  // A masked result is sent as a short placeholder; a kept one whole.
  expect(results[1]!.sentTokens).toBeLessThan(results[1]!.tokens / 4);
  expect(results[3]!.sentTokens).toBe(results[3]!.tokens);
  expect(view.sentTokens).toBeLessThan(view.storedTokens);
  expect(view.storedTokens).toBe(view.items.reduce((sum, i) => sum + i.tokens, 0));
  expect(view.items[0]).toMatchObject({ role: 'user', state: 'kept', preview: 'Read the files, please.' });

  // The view agrees with what is sent: the next request carries exactly the listed sent messages.
  app.settings.set('context.maskAfterTokens', 0);
  const unmasked = await u.call<ContextView>('context.view', { sessionId: s.id });
  expect(unmasked.items.every((i) => i.state === 'kept' || i.state === 'repeat')).toBe(true);
});

test('after a compaction the view starts with its summary; restore branches back to the entry before it with the whole history, the compacted branch kept', async () => {
  const requests: ProviderRequest[] = [];
  const u = open(requests);
  const { app } = u;
  const s = app.sessions.create({ title: 'Compacted', cwd: join(u.dir, 'ws') });
  app.sessions.appendMany(
    s.id,
    history([
      { path: 'a.txt', text: 'alpha '.repeat(400) },
      { path: 'b.txt', text: 'beta '.repeat(400) },
    ]),
  );
  const before = app.sessions.leaf(s.id)!;
  const outcome = await app.agent.compact(s.id);
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  const view = await u.call<ContextView>('context.view', { sessionId: s.id });
  expect(view.compaction).toMatchObject({ entryId: outcome.entry.id, summary: 'Earlier: the user read three files.', restoreFrom: before });
  expect(view.items[0]).toMatchObject({ entryId: outcome.entry.id, state: 'summary', role: 'compaction' });

  const restored = await u.call<{ leafId: string }>('context.restore', { sessionId: s.id, compactionId: outcome.entry.id });
  expect(restored.leafId).toBe(before);
  expect(app.sessions.leaf(s.id)).toBe(before);
  const full = await u.call<ContextView>('context.view', { sessionId: s.id });
  expect(full.compaction).toBeNull();
  expect(full.items.filter((i) => i.role === 'toolResult')).toHaveLength(2);
  // The compaction is still in the tree, under the same entry: nothing was deleted.
  expect(app.sessions.children(s.id, before)).toContain(outcome.entry.id);
  expect(app.sessions.entry(s.id, outcome.entry.id).type).toBe('compaction');
});

test('restore refuses what is not a compaction on the branch, with a sentence, and moves nothing', async () => {
  const u = open();
  const { app } = u;
  const s = app.sessions.create({ title: 'Refusals', cwd: join(u.dir, 'ws') });
  app.sessions.appendMany(s.id, history([{ path: 'a.txt', text: 'alpha '.repeat(400) }]));
  const leaf = app.sessions.leaf(s.id)!;
  const notCompaction = await u.refused('context.restore', { sessionId: s.id, compactionId: leaf });
  expect(notCompaction).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/not one/) });
  const missing = await u.refused('context.restore', { sessionId: s.id, compactionId: 'no-such-entry' });
  expect(missing.code).toBe('not_found');
  for (const bad of [{}, { sessionId: s.id }, { sessionId: s.id, compactionId: 'x'.repeat(500) }, { sessionId: 7, compactionId: leaf }]) {
    expect((await u.refused('context.restore', bad)).code).toBe('invalid_input');
  }
  expect((await u.refused('context.view', { sessionId: 'nope' })).code).toBe('not_found');
  expect(app.sessions.leaf(s.id)).toBe(leaf);
});
