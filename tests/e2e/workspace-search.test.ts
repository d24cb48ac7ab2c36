// Workspace search end to end on the real parts: the headless shell with the search plugin in its own process,
// the OpenAI-compatible provider plugin streaming from a loopback server, and a client on the real WebSocket.
// The model is offered `search` in read mode, calls it, and its next request carries the ranked result.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { openAiStream, type RecordedRequest } from '../fixtures/provider-server.ts';

let h: HeadlessUnderTest;

/** The scripted model: asked where something is, it searches; given the result, it answers in a word. */
function model(request: RecordedRequest) {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.at(-1)!;
  if (last.role === 'tool' || request.bodyText.includes('Is the task the user asked for finished?')) return openAiStream({ text: 'Found it.' });
  return openAiStream({ toolCalls: [{ id: 'call_search', name: 'search', arguments: { query: 'invoice total' } }] });
}

beforeEach(async () => {
  h = await openHeadless({
    prefix: 'amber-e2e-search-',
    script: model,
    before: (workspace) => {
      mkdirSync(join(workspace, 'src', 'billing'), { recursive: true });
      for (let i = 0; i < 40; i++) writeFileSync(join(workspace, 'src', `part${i}.ts`), `export const part${i} = ${i}; // the total of part ${i}\n`);
      writeFileSync(
        join(workspace, 'src', 'billing', 'invoice-total.ts'),
        'export function invoiceTotal(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
      );
    },
  });
});

afterEach(() => h.close());
const toolNames = (request: RecordedRequest) => ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);

test('in read mode the model is offered search, calls it, and reads the file with the words in its name first', async () => {
  const c = h.client;
  await h.connect();

  const session = await c.call<{ id: string }>('sessions.create', { title: 'where' });
  await c.call('policy.setMode', { sessionId: session.id, mode: 'read' });
  const first = h.server.requests.length;
  await h.send(session.id, 'Where is the invoice total computed?');

  const [asked, answered] = h.server.requests.slice(first);
  expect(toolNames(asked!)).toEqual(expect.arrayContaining(['search', 'repo_map']));
  const toolMessage = (answered!.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === 'tool')!;
  expect(String(toolMessage.content)).toMatch(/^src\/billing\/invoice-total\.ts:1: export function invoiceTotal\(lines: number\[\]\) \{/);
  expect(readdirSync(join(h.dir, 'data', 'plugin-data', 'workspace_search', 'indexes')).filter((f) => f.endsWith('.sqlite'))).toHaveLength(1);
});
