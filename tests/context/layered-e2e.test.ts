// End to end on the real parts: the headless shell, the OpenAI-compatible provider plugin in its own process
// streaming from a loopback server. /compact sends the classify and extract requests with their JSON schemas as
// response_format, the extract request repeats the classify request's messages byte for byte, and the
// conversation's next request carries the structured summary and the messages kept word for word.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';
import { type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { connectWs, type WsClient } from '../fixtures/ws-client.ts';
import { bodyOf, kindOf, layeredReply } from './layered-model.ts';

let dir: string;
let server: ProviderServer;
let shell: HeadlessShell | null = null;
let client: WsClient | null = null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-layered-e2e-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  server = await startProviderServer();
  shell = await startHeadless({ dataDir: join(dir, 'data'), rendererDir: join(dir, 'renderer'), core: { workspace } });
  client = await connectWs(shell.port, shell.token);
});

afterEach(async () => {
  client?.close();
  await shell?.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function providerReady(s: HeadlessShell, id: string): Promise<void> {
  const providers = s.app.plugins.registries.providers;
  if (providers.get(id)) return Promise.resolve();
  return new Promise((resolve) => {
    const sub = providers.onDidChange(() => {
      if (providers.get(id)) {
        sub.dispose();
        resolve();
      }
    });
  });
}

const isSettled = (e: unknown) => (e as { type?: string }).type === 'agent_settled';

test('/compact through the provider plugin: classify and extract carry their schemas, share their prefix, and the next request starts from the structured summary', async () => {
  const s = shell!;
  const c = client!;
  await c.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model: 'loop-model' });
  await providerReady(s, 'custom');
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

  const settled = c.waitFor('agent.emitted', isSettled);
  await c.call('chat.send', { sessionId: session.id, text: 'And now?' });
  await settled;
  const next = bodyOf(server.requests.at(-1)!).messages.filter((m) => m.role !== 'system');
  expect(String(next[0]!.content)).toMatch(/^The conversation so far, summarised:\n\nGoal: Port the parser/);
  expect(String(next[0]!.content)).toContain('[m1] User: Port the parser in src/parser.ts; the limit is 4096 tokens.');
  const compaction = s.app.sessions.path(session.id).find((e) => e.type === 'compaction');
  expect(compaction).toMatchObject({ strategy: 'layered', usage: { input: 2100, output: 20 } });
});
