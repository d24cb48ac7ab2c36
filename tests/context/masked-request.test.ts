// End to end on the real parts: the headless shell, the OpenAI-compatible provider plugin streaming from a
// loopback server and the workspace tools reading real files. The request the server receives carries old tool
// output as a placeholder; the stored conversation keeps it whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { TranscriptPage } from '../../src/shared/sessions/index.ts';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { openAiStream } from '../fixtures/provider-server.ts';

let h: HeadlessUnderTest;

beforeEach(async () => {
  h = await openHeadless({
    prefix: 'amber-masked-',
    before: (workspace) => {
      for (const name of ['a', 'b', 'c']) writeFileSync(join(workspace, `${name}.txt`), `${`${name} says hello\n`.repeat(300)}`);
    },
  });
});

afterEach(() => h.close());

const toolMessages = (body: unknown) => ((body as { messages: { role: string; content: unknown }[] }).messages ?? []).filter((m) => m.role === 'tool');
const textOf = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

test('the model server receives old tool output as a placeholder naming the call and its entry, the newest whole', async () => {
  const { shell: s, client: c, server } = h;
  // Each file is 4,500 characters (about 1,125 tokens): with 1,000 kept and batches of 500, the first read is hidden by the last request.
  s.app.settings.set('context.maskAfterTokens', 1000);
  s.app.settings.set('context.maskBatchTokens', 500);
  await h.connect();
  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_a', name: 'read', arguments: { path: 'a.txt' } }] }),
    openAiStream({ toolCalls: [{ id: 'call_b', name: 'read', arguments: { path: 'b.txt' } }] }),
    openAiStream({ toolCalls: [{ id: 'call_c', name: 'read', arguments: { path: 'c.txt' } }] }),
    openAiStream({ text: 'All three say hello.' }),
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'masking' });
  await h.send(session.id, 'Read a, b and c.');

  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  const readA = page.entries.find((e) => e.type === 'message' && e.message.role === 'toolResult' && e.message.toolCallId === 'call_a');
  expect(readA?.type === 'message' && textOf(readA.message.content)).toContain('a says hello');

  // The second request still has the first read whole; the fourth has it as a placeholder, and the last read whole.
  expect(textOf(toolMessages(server.requests[1]!.body)[0]!.content)).toContain('a says hello');
  const last = toolMessages(server.requests[3]!.body).map((m) => textOf(m.content));
  expect(last).toHaveLength(3);
  expect(last[0]).toContain(`[Output hidden to keep the context small: read({"path":"a.txt"}) returned`);
  expect(last[0]).toContain(`entry ${readA!.id}; to see it again, repeat the call if it only reads, or ask for just the part you need.]`);
  expect(last[0]).not.toContain('a says hello');
  expect(last[2]).toContain('c says hello');
  expect(server.requests[3]!.bodyText).not.toContain('a says hello');
});
