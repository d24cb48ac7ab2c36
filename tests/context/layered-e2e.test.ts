// End to end on the real parts: the headless shell, the OpenAI-compatible provider plugin in its own process
// streaming from a loopback server. /compact sends the classify and extract requests with their JSON schemas as
// response_format, the extract request repeats the classify request's messages byte for byte, and the
// conversation's next request carries the structured summary and the messages kept word for word.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { bodyOf, kindOf, layeredReply } from './layered-model.ts';

let h: HeadlessUnderTest;

beforeEach(async () => {
  h = await openHeadless({ prefix: 'amber-layered-e2e-' });
});

afterEach(() => h.close());

test('/compact through the provider plugin: classify and extract carry their schemas, share their prefix, and the next request starts from the structured summary', async () => {
  const { shell: s, client: c, server } = h;
  await h.connect();
  server.setScript((r) => layeredReply(r));
  const session = await c.call<{ id: string }>('sessions.create', { title: 'layered' });
  s.app.sessions.appendMany(session.id, [
    { type: 'message', message: { role: 'user', content: 'Port the parser in src/parser.ts; the limit is 4096 tokens.' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop' } },
    { type: 'message', message: { role: 'user', content: `Some background: ${'the weather was fine. '.repeat(30)}` } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }], stopReason: 'stop' } },
    { type: 'message', message: { role: 'user', content: 'What next?' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'The tokenizer.' }], stopReason: 'stop' } },
  ]);
  server.requests.length = 0;

  const ran = await c.call<{ result: { kind: string; text: string } }>('commands.run', { input: '/compact', sessionId: session.id });
  expect(ran.result.kind).not.toBe('error');
  expect(server.requests.map(kindOf)).toEqual(['classify', 'extract']);
  const [classify, extract] = server.requests;
  expect(classify!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'classify_messages' } } });
  expect(extract!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'extract_summary' } } });
  const classifyMessages = JSON.stringify(bodyOf(classify!).messages);
  expect(JSON.stringify(bodyOf(extract!).messages).startsWith(classifyMessages.slice(0, -1))).toBe(true);

  await h.send(session.id, 'And now?');
  const next = bodyOf(server.requests.at(-1)!).messages.filter((m) => m.role !== 'system');
  expect(String(next[0]!.content)).toMatch(/^The conversation so far, summarised:\n\nGoal: Port the parser/);
  expect(String(next[0]!.content)).toContain('[m1] User: Port the parser in src/parser.ts; the limit is 4096 tokens.');
  const compaction = s.app.sessions.path(session.id).find((e) => e.type === 'compaction');
  expect(compaction).toMatchObject({ strategy: 'layered', usage: { input: 2100, output: 20 } });
});
