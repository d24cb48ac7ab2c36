// End to end on the real parts: the headless shell, the OpenAI-compatible provider plugin streaming from a
// loopback server and the workspace tools reading real files. The request the server receives carries old tool
// output as a placeholder; the stored conversation keeps it whole.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';
import type { TranscriptPage } from '../../src/shared/sessions/index.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { connectWs, type WsClient } from '../fixtures/ws-client.ts';

let dir: string;
let server: ProviderServer;
let shell: HeadlessShell | null = null;
let client: WsClient | null = null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-masked-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  for (const name of ['a', 'b', 'c']) writeFileSync(join(workspace, `${name}.txt`), `${`${name} says hello\n`.repeat(300)}`);
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
const toolMessages = (body: unknown) => ((body as { messages: { role: string; content: unknown }[] }).messages ?? []).filter((m) => m.role === 'tool');
const textOf = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

test('the model server receives old tool output as a placeholder naming the call and its entry, the newest whole', async () => {
  const s = shell!;
  const c = client!;
  // Each file is 4,500 characters (about 1,125 tokens): with 1,000 kept and batches of 500, the first read is hidden by the last request.
  s.app.settings.set('context.maskAfterTokens', 1000);
  s.app.settings.set('context.maskBatchTokens', 500);
  await c.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model: 'loop-model' });
  await providerReady(s, 'custom');
  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_a', name: 'read', arguments: { path: 'a.txt' } }] }),
    openAiStream({ toolCalls: [{ id: 'call_b', name: 'read', arguments: { path: 'b.txt' } }] }),
    openAiStream({ toolCalls: [{ id: 'call_c', name: 'read', arguments: { path: 'c.txt' } }] }),
    openAiStream({ text: 'All three say hello.' }),
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'masking' });
  const settled = c.waitFor('agent.emitted', isSettled);
  await c.call('chat.send', { sessionId: session.id, text: 'Read a, b and c.' });
  await settled;

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
