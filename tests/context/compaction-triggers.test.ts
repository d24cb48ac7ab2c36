// When a run compacts on its own: before a model call, so also right after a round of tool results that filled
// the window (the next call is made from the compaction); never below half the model's window, whatever the
// threshold says; and a context overflow still gets one layered compaction and one retry.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createOpenAiCompatibleStream } from '../../src/plugins/openai-compatible/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { jsonError, openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { createHarness, type Harness } from '../agent/agent-harness.ts';
import { MODEL, text } from '../agent/scripted-provider.ts';
import { bodyOf, kindOf, layeredReply } from './layered-model.ts';

let server: ProviderServer;
let under: AppUnderTest | null = null;
let h: Harness | undefined;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await under?.close();
  under = null;
  await h?.close();
  h = undefined;
  await server.close();
});

function open(): AppUnderTest {
  const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, flavor: 'custom' });
  under = openApp({
    prefix: 'amber-triggers-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: (dir) => ({
      workspace: join(dir, 'ws'),
      home: dir,
      defaultModel: { provider: 'loopback', modelId: 'fixture-model' },
      // A 2,000-token window: compaction past 80 % (1,600 tokens).
      resolveProvider: () => ({
        stream,
        model: { id: 'fixture-model', contextWindow: 2000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      }),
      tools: {
        list: () => [{ name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } }, readOnly: true }],
        // About 1,500 tokens: the tool result alone takes the context past the threshold.
        execute: async () => ({ content: [{ type: 'text', text: 'line of the log file\n'.repeat(300) }], isError: false }),
      },
    }),
  });
  return under;
}

test('a tool result that fills the window is compacted before the next model call of the same run', async () => {
  const u = open();
  let turns = 0;
  server.setScript((r) => {
    if (kindOf(r) !== 'turn') return layeredReply(r);
    turns++;
    return turns === 1
      ? openAiStream({ toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'log.txt' } }], usage: { input: 300, output: 10 } })
      : openAiStream({ text: 'Done.' });
  });
  const s = u.app.sessions.create({ title: 'Triggers', cwd: join(u.dir, 'ws') });
  const result = await u.app.agent.prompt(s.id, 'Read log.txt in /src/app.ts please');
  expect(result.reason).toBe('stop');
  expect(server.requests.map(kindOf).slice(0, 4)).toEqual(['turn', 'classify', 'extract', 'turn']);
  const types = u.app.sessions.path(s.id).map((e) => (e.type === 'message' ? e.message.role : e.type));
  // The compaction sits right after the tool result, before the reply the next call made.
  expect(types.slice(types.indexOf('toolResult'), types.indexOf('toolResult') + 3)).toEqual(['toolResult', 'compaction', 'assistant']);
  // The call after the tool result was made from the compaction: its first message is the summary.
  const after = bodyOf(server.requests[3]!).messages.filter((m) => m.role !== 'system');
  expect(String(after[0]!.content)).toMatch(/^The conversation so far, summarised:\n\nGoal: Port the parser/);
});

test('a context overflow gets one layered compaction and one retry', async () => {
  const u = open();
  let turns = 0;
  server.setScript((r) => {
    if (kindOf(r) !== 'turn') return layeredReply(r);
    turns++;
    return turns === 1
      ? jsonError(400, 'This model’s maximum context length is 2000 tokens.', { code: 'context_length_exceeded' })
      : openAiStream({ text: 'Fits now.' });
  });
  const s = u.app.sessions.create({ title: 'Overflow', cwd: join(u.dir, 'ws') });
  u.app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'user', content: 'Port src/parser.ts' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Working on it.' }], stopReason: 'stop' } },
  ]);
  const result = await u.app.agent.prompt(s.id, 'go on');
  expect(result.reason).toBe('stop');
  expect(server.requests.map(kindOf).slice(0, 4)).toEqual(['turn', 'classify', 'extract', 'turn']);
  expect(u.app.sessions.path(s.id).filter((e) => e.type === 'compaction')).toHaveLength(1);
});

test('a run never compacts below half the window, even with a lower threshold; /compact does', async () => {
  const window = { ...MODEL, contextWindow: 1000 };
  h = createHarness([text('Answer.'), text('HAND SUMMARY')], {
    model: window,
    compaction: { enabled: true, threshold: 0.1, keepRecentTokens: 50, strategy: 'summary' },
  });
  // About 300 tokens: past the threshold of 10 %, under half the window.
  for (let i = 1; i <= 3; i++) {
    h.store.append(h.sessionId, { type: 'message', message: { role: 'user', content: `question ${i} `.padEnd(200, 'q') } });
    h.store.append(h.sessionId, {
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i} `.padEnd(200, 'a') }], stopReason: 'stop' },
    });
  }
  await h.agent.prompt(h.sessionId, 'next');
  expect(h.provider.requests).toHaveLength(1);
  expect(h.path().some((e) => e.type === 'compaction')).toBe(false);
  const outcome = await h.agent.compact(h.sessionId);
  expect(outcome).toMatchObject({ ok: true, entry: { summary: 'HAND SUMMARY' } });
});

test('a run says so when its compaction fell back to the summary pass', async () => {
  h = createHarness([text('not json'), text('still not json'), text('SUMMARY'), text('Answer.')], {
    model: { ...MODEL, contextWindow: 1000 },
    // Recent 300 tokens kept: the older half fits one classify request (at most half the window, 2,000 characters).
    compaction: { enabled: true, threshold: 0.5, keepRecentTokens: 300, strategy: 'layered' },
  });
  for (let i = 1; i <= 3; i++) {
    h.store.append(h.sessionId, { type: 'message', message: { role: 'user', content: `question ${i} `.padEnd(400, 'q') } });
    h.store.append(h.sessionId, {
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i} `.padEnd(400, 'a') }], stopReason: 'stop' },
    });
  }
  const result = await h.agent.prompt(h.sessionId, 'next');
  expect(result.reason).toBe('stop');
  expect(h.provider.requests.map((r) => r.responseSchema?.name ?? 'plain')).toEqual(['classify_messages', 'classify_messages', 'plain', 'plain']);
  expect(h.path().find((e) => e.type === 'compaction')).toMatchObject({ strategy: 'summary', summary: 'SUMMARY' });
  expect(h.events.find((e) => e.type === 'notice')).toMatchObject({
    code: 'compaction_fallback',
    message: expect.stringMatching(
      /^The older messages were summarised in one request, not classified and kept: The classify_messages answer did not follow its schema twice/,
    ),
  });
});
