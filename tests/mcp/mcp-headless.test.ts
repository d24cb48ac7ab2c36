// End to end in the headless shell: the loopback model calls `mcp__everything__echo`, offered by the mcp
// plugin from the reference server in mcp.json; the call is asked about (MCP tools are write tools,
// whatever their readOnlyHint), and once allowed its result comes back into the reply.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';
import type { Entry, TranscriptPage } from '../../src/shared/sessions/index.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { connectWs, type WsClient } from '../fixtures/ws-client.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';

let dir: string;
let server: ProviderServer;
let shell: HeadlessShell | null = null;
let client: WsClient | null = null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-e2e-'));
  mkdirSync(join(dir, 'workspace'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(
    join(dir, 'data', 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } }),
  );
  server = await startProviderServer();
});

afterEach(async () => {
  client?.close();
  client = null;
  await shell?.close();
  shell = null;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function registered(s: HeadlessShell, check: () => boolean, registry: { onDidChange(l: () => void): { dispose(): void } }): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve) => {
    const sub = registry.onDidChange(() => {
      if (check()) {
        sub.dispose();
        resolve();
      }
    });
  });
}

const isSettled = (e: unknown) => (e as { type?: string }).type === 'agent_settled';

test('the model calls an MCP tool, the approval is asked, and the result comes back into the reply', async () => {
  shell = await startHeadless({ dataDir: join(dir, 'data'), rendererDir: join(dir, 'renderer'), core: { workspace: join(dir, 'workspace') } });
  client = await connectWs(shell.port, shell.token);
  const s = shell;
  const c = client;
  await c.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model: 'loop-model' });
  await registered(s, () => s.app.plugins.registries.providers.get('custom') !== undefined, s.app.plugins.registries.providers);
  // mcp.json switched the MCP plugin on at start.
  const tools = s.app.plugins.registries.tools;
  await registered(s, () => tools.get('mcp__everything__echo') !== undefined, tools);

  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'hello from the model' } }] }),
    openAiStream({ text: 'The server said: Echo: hello from the model' }),
    // The silent confirm turn after a run that used tools.
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'mcp' });
  const asked = c.waitFor<{ id: string; toolName: string }>('approval.requested');
  const settled = c.waitFor('agent.emitted', isSettled);
  await c.call('chat.send', { sessionId: session.id, text: 'Echo something.' });
  const question = await asked;
  expect(question.toolName).toBe('mcp__everything__echo');
  await c.call('approvals.answer', { questionId: question.id, answer: 'once' });
  await settled;

  const offered = (server.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
  expect(offered).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
  expect(server.requests[1]!.bodyText).toContain('Echo: hello from the model');
  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  const result = page.entries.find((e: Entry) => e.type === 'message' && e.message.role === 'toolResult');
  expect(result?.type === 'message' ? result.message : null).toMatchObject({ toolName: 'mcp__everything__echo', status: 'ok' });
  expect(JSON.stringify(page.entries)).toContain('The server said: Echo: hello from the model');
});
