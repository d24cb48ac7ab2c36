// Layer 2 of context compression through the app and the OpenAI-compatible provider talking to a loopback
// server: classify, then extract on the same prefix, the structured summary and the messages kept word for word;
// the summary pass when answers fail their schema twice; and all or nothing when any step fails.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DATABASE_FILE } from '../../src/main/data-dir.ts';
import { createAnthropicStream } from '../../src/plugins/anthropic/index.ts';
import { createOpenAiCompatibleStream } from '../../src/plugins/openai-compatible/index.ts';
import { MEMORY_EXTRACTED_TOPIC } from '../../src/shared/plugins/index.ts';
import { contentText, type Entry, type EntryInput } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { anthropicStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { bodyOf, classifyByRules, EXTRACTED, kindOf, layeredReply } from './layered-model.ts';

let server: ProviderServer;
let under: AppUnderTest | null = null;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await under?.close();
  under = null;
  await server.close();
});

function open(contextWindow = 4000): AppUnderTest {
  const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, flavor: 'custom' });
  under = openApp({
    prefix: 'amber-layered-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: () => ({
      defaultModel: { provider: 'loopback', modelId: 'fixture-model' },
      resolveProvider: () => ({
        stream,
        model: { id: 'fixture-model', contextWindow, reasoning: false, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
      }),
    }),
  });
  return under;
}

const msg = (role: 'user' | 'assistant', text: string): EntryInput =>
  role === 'user'
    ? { type: 'message', message: { role, content: text } }
    : { type: 'message', message: { role, content: [{ type: 'text', text }], stopReason: 'stop' } };

/** A conversation: a request naming a file, chatter, a read of the file, an acknowledgement, more turns. */
function history(): EntryInput[] {
  return [
    msg('user', 'Port the parser in src/parser.ts; the limit is 4096 tokens.'),
    msg('assistant', 'ok'),
    msg('user', `Some background you may like: ${'the weather was fine that day. '.repeat(40)}`),
    msg('assistant', `I see. ${'Thinking about the weather. '.repeat(40)}`),
    msg('user', 'What next?'),
    msg('assistant', `Next we port the tokenizer. ${'More words about the plan. '.repeat(40)}`),
  ];
}

function seeded(u: AppUnderTest): string {
  const s = u.app.sessions.create({ title: 'Layered', cwd: join(u.dir, 'ws') });
  u.app.sessions.appendMany(s.id, history());
  return s.id;
}

test('classify then extract on the same prefix: the summary is structured, core messages stay word for word, prune ones go, memories reach the plugin topic', async () => {
  const u = open();
  server.setScript((r) => layeredReply(r));
  const sessionId = seeded(u);
  const told: unknown[] = [];
  u.app.plugins.events.on(MEMORY_EXTRACTED_TOPIC, (payload) => told.push(payload));

  const outcome = await u.app.agent.compact(sessionId);
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  expect(server.requests.map(kindOf)).toEqual(['classify', 'extract']);
  const [classify, extract] = server.requests.map(bodyOf);
  // The extract request replays the classify request's system and messages byte for byte, then the answer and one instruction.
  expect(JSON.stringify(extract!.messages.slice(0, classify!.messages.length))).toBe(JSON.stringify(classify!.messages));
  expect(extract!.messages.slice(classify!.messages.length).map((m) => m.role)).toEqual(['assistant', 'user']);

  const entry = outcome.entry;
  // The provider and model the replies name (this stream's flavor is 'custom').
  expect(entry).toMatchObject({ type: 'compaction', strategy: 'layered', provider: 'custom', model: 'fixture-model' });
  expect(entry.summary).toMatch(
    /^Goal: Port the parser\nDecisions:\n- Keep the old API\nFiles:\n- src\/parser\.ts\nOpen errors: none\nNext step: Run the tests/,
  );
  expect(entry.summary).toContain('[m1] User: Port the parser in src/parser.ts; the limit is 4096 tokens.');
  expect(entry.summary).not.toContain('[m2] Assistant: ok');
  // Both requests are charged on the entry: 1,000 + 1,100 tokens in, 10 + 10 out.
  expect(entry.usage).toMatchObject({ input: 2100, output: 20 });
  expect(outcome.memories).toEqual(EXTRACTED.memories);
  expect(told).toEqual([{ sessionId, entryId: entry.id, workspace: join(u.dir, 'ws'), memories: EXTRACTED.memories }]);
  // The next request starts from the compaction.
  expect(u.app.sessions.context(sessionId).entries[0]!.id).toBe(entry.id);
});

test('the kept context fits the window share: the oldest context messages are left out first, core ones stay', async () => {
  // 3,000 tokens of window at 30 %: 900 tokens for the summary, the messages kept and the recent one (about 300).
  const u = open(3000);
  u.app.settings.set('context.keepPercent', 30);
  server.setScript((r) => layeredReply(r));
  const sessionId = seeded(u);
  const outcome = await u.app.agent.compact(sessionId);
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  const summary = outcome.entry.summary;
  expect(summary).toContain('[m1] User: Port the parser'); // core
  expect(summary).not.toContain('the weather was fine'); // the oldest context message, left out for room
  expect(summary).toContain('Thinking about the weather'); // a newer context message, kept
  const recent = u.app.sessions.context(sessionId).messages.slice(1);
  const tokens = Math.ceil(summary.length / 4) + recent.reduce((n, m) => n + Math.ceil(contentText(m.content as never).length / 4), 0);
  expect(tokens).toBeLessThanOrEqual(900);

  // With the whole window's half (the default), every core and context message stays.
  server.requests.length = 0;
  u.app.settings.set('context.keepPercent', 90);
  u.app.sessions.branch(sessionId, outcome.entry.parentId);
  const roomy = await u.app.agent.compact(sessionId);
  expect(roomy.ok && roomy.entry.summary).toContain('the weather was fine');
});

test('answers that fail their schema twice fall back to the summary pass, and every request is charged', async () => {
  const u = open();
  server.setScript((r) => layeredReply(r, { step: 'classify', as: 'junk' }));
  const sessionId = seeded(u);
  const outcome = await u.app.agent.compact(sessionId);
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  expect(server.requests.map(kindOf)).toEqual(['classify', 'classify', 'summary']);
  expect(outcome.entry).toMatchObject({ summary: 'SUMMARY PASS', strategy: 'summary', usage: { input: 100 + 100 + 900, output: 30 } });
  expect(outcome.memories).toEqual([]);
});

/** Every entry of the session with the leaf: what "exactly as it was" compares. */
function snapshot(u: AppUnderTest, sessionId: string): { leaf: string | null; entries: Entry[] } {
  return { leaf: u.app.sessions.leaf(sessionId), entries: [...u.app.sessions.allEntries(sessionId)] };
}

test.each([
  { name: 'the classify call fails', fail: { step: 'classify', as: 'http' }, requests: ['classify'] },
  { name: 'classify answers junk twice and the summary pass fails', fail: { step: 'classify', as: 'junk' }, requests: ['classify', 'classify', 'summary'] },
  { name: 'the extract call fails', fail: { step: 'extract', as: 'http' }, requests: ['classify', 'extract'] },
  {
    name: 'extract answers junk twice and the summary pass fails',
    fail: { step: 'extract', as: 'junk' },
    requests: ['classify', 'extract', 'extract', 'summary'],
  },
] as const)('all or nothing: when $name, the session is left exactly as it was', async ({ fail, requests }) => {
  const u = open();
  server.setScript((r) => (kindOf(r) === 'summary' ? layeredReply(r, { step: 'summary', as: 'http' }) : layeredReply(r, fail)));
  const sessionId = seeded(u);
  const before = snapshot(u, sessionId);
  const outcome = await u.app.agent.compact(sessionId);
  expect(outcome.ok).toBe(false);
  expect(server.requests.map(kindOf)).toEqual(requests);
  expect(snapshot(u, sessionId)).toEqual(before);
});

test('all or nothing: when the compaction cannot be written, the session is left exactly as it was', async () => {
  const u = open();
  server.setScript((r) => layeredReply(r));
  const sessionId = seeded(u);
  const before = snapshot(u, sessionId);
  // The database refuses the compaction's row, as a full disk would.
  const db = new Database(join(u.dataDir, DATABASE_FILE));
  db.exec("CREATE TRIGGER refuse_compaction BEFORE INSERT ON entries WHEN NEW.type = 'compaction' BEGIN SELECT RAISE(ABORT, 'disk full'); END");
  db.close();
  const outcome = await u.app.agent.compact(sessionId);
  expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be saved.*disk full/) });
  expect(server.requests.map(kindOf)).toEqual(['classify', 'extract']);
  expect(snapshot(u, sessionId)).toEqual(before);
});

test('a second compaction classifies the messages the first kept one by one, and summaries are never nested', async () => {
  const u = open();
  server.setScript((r) => layeredReply(r));
  const sessionId = seeded(u);
  const first = await u.app.agent.compact(sessionId);
  expect(first.ok).toBe(true);
  if (!first.ok) return;
  const firstKept = first.entry.keptEntryIds ?? [];
  expect(firstKept.length).toBeGreaterThan(0);
  u.app.sessions.appendMany(sessionId, history());

  server.requests.length = 0;
  const second = await u.app.agent.compact(sessionId);
  expect(second.ok).toBe(true);
  if (!second.ok) return;
  const transcript = String(bodyOf(server.requests[0]!).messages.find((m) => m.role === 'user')!.content);
  // m1 is the first compaction's structured summary alone; the messages it kept follow as messages of their own.
  expect(transcript).toMatch(/^<conversation>\n\[m1\] User: The conversation so far, summarised:\n\nGoal: Port the parser/);
  expect(transcript).not.toContain('Kept word for word');
  expect(transcript).toContain('[m2] User: Port the parser in src/parser.ts');
  // The new summary keeps the original message (again core), not the old summary.
  expect(second.entry.summary.match(/Kept word for word/g)).toHaveLength(1);
  expect(second.entry.keptEntryIds).toContain(firstKept[0]);
});

test('on the Anthropic wire the answers come as the forced tool calls, and the extract request replays the classify answer as text', async () => {
  const stream = createAnthropicStream({ baseUrl: server.url, apiKey: 'sk-ant-test-0123456789', flavor: 'anthropic' });
  under = openApp({
    prefix: 'amber-layered-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: () => ({
      defaultModel: { provider: 'claude', modelId: 'fixture-model' },
      resolveProvider: () => ({
        stream,
        model: { id: 'fixture-model', contextWindow: 4000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      }),
    }),
  });
  const u = under;
  server.setScript((r) => {
    const choice = (r.body as { tool_choice?: { name?: string } }).tool_choice?.name;
    if (choice === 'classify_messages') {
      // The rules read the transcript as the OpenAI-compatible wire carries it: a user message's text.
      const transcript = (r.body as { messages: { content: { text: string }[] }[] }).messages[0]!.content[0]!.text;
      const items = JSON.parse(classifyByRules({ ...r, body: { messages: [{ role: 'user', content: transcript }] } })) as Record<string, unknown>;
      return anthropicStream({ toolCalls: [{ id: 'toolu_1', name: 'classify_messages', arguments: items }] });
    }
    return anthropicStream({ toolCalls: [{ id: 'toolu_2', name: 'extract_summary', arguments: EXTRACTED }] });
  });
  const sessionId = seeded(u);
  const outcome = await u.app.agent.compact(sessionId);
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  const [classify, extract] = server.requests.map(
    (r) => r.body as { messages: { role: string; content: { type: string; text?: string }[] }[]; tool_choice: unknown },
  );
  expect(classify!.tool_choice).toEqual({ type: 'tool', name: 'classify_messages' });
  expect(extract!.tool_choice).toEqual({ type: 'tool', name: 'extract_summary' });
  expect(extract!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  expect(JSON.parse(extract!.messages[1]!.content[0]!.text!)).toHaveProperty('items');
  expect(outcome.entry).toMatchObject({ strategy: 'layered' });
  expect(outcome.entry.summary).toContain('[m1] User: Port the parser');
  expect(outcome.memories).toEqual(EXTRACTED.memories);
});

test('older messages too long for one classify request go to the summary pass at once', async () => {
  // A 1,000-token window takes a transcript of 2,000 characters at most; these older messages are far longer.
  const u = open(1000);
  server.setScript((r) => layeredReply(r));
  const s = u.app.sessions.create({ title: 'Long', cwd: join(u.dir, 'ws') });
  u.app.sessions.appendMany(s.id, [
    msg('user', 'a'.repeat(3000)),
    msg('assistant', 'b'.repeat(3000)),
    msg('user', 'c'.repeat(3000)),
    msg('assistant', 'd'.repeat(3000)),
  ]);
  const outcome = await u.app.agent.compact(s.id);
  expect(server.requests.map(kindOf)).toEqual(['summary']);
  expect(outcome).toMatchObject({ ok: true, entry: { strategy: 'summary', summary: 'SUMMARY PASS' } });
});
