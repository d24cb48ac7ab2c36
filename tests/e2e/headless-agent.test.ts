// End to end on the real parts: the headless shell with its bundled plugins in their own processes, the
// OpenAI-compatible provider plugin streaming from a loopback server, the workspace tools under the policy,
// and a client on the real WebSocket. Nothing is stubbed but the model's words.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';
import type { Entry, TranscriptPage, TreeNode } from '../../src/shared/sessions/index.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { connectWs, type WsClient } from '../fixtures/ws-client.ts';

let dir: string;
let workspace: string;
let server: ProviderServer;
let shell: HeadlessShell | null = null;
let client: WsClient | null = null;

async function start(): Promise<{ shell: HeadlessShell; client: WsClient }> {
  shell = await startHeadless({ dataDir: join(dir, 'data'), rendererDir: join(dir, 'renderer'), core: { workspace } });
  client = await connectWs(shell.port, shell.token);
  return { shell, client };
}

async function stop(): Promise<void> {
  client?.close();
  client = null;
  await shell?.close();
  shell = null;
}

/** Waits until the provider plugin offers the account (it restarts when a provider is saved). */
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
const roleOf = (e: Entry) => (e.type === 'message' ? e.message.role : e.type);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-e2e-'));
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), 'the launch is on friday\n');
  server = await startProviderServer();
});

afterEach(async () => {
  await stop();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a session runs end to end: provider plugin, tools, an approval, a fork from an earlier leaf, resume after restart', async () => {
  const { shell: s, client: c } = await start();

  // First-run setup: a custom OpenAI-compatible endpoint (the loopback server), no key.
  await c.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model: 'loop-model' });
  await providerReady(s, 'custom');

  // Turn 1 reads a file (read-only: runs at once) and tries to write outside the workspace (asks: denied).
  server.setScript([
    openAiStream({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_read', name: 'read', arguments: { path: 'notes.txt' } },
        { id: 'call_write', name: 'write', arguments: { path: '../escape.txt', content: 'x' } },
      ],
      usage: { input: 50, output: 10 },
    }),
    openAiStream({ text: ['The launch ', 'is on Friday.'], usage: { input: 80, output: 6 } }),
    // The silent confirm turn after a run that used tools: the task is finished.
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'e2e' });
  const asked = c.waitFor<{ id: string; toolName: string }>('approval.requested');
  const settled = c.waitFor('agent.emitted', isSettled);
  await c.call('chat.send', { sessionId: session.id, text: 'When is the launch?' });
  const question = await asked;
  expect(question.toolName).toBe('write');
  await c.call('approvals.answer', { questionId: question.id, answer: 'deny' });
  await settled;

  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  // The run records the model it used on the branch first.
  // The confirm turn is kept as a custom entry, which the transcript does not show and the model is not sent again.
  expect(page.entries.map(roleOf)).toEqual(['model_change', 'user', 'assistant', 'toolResult', 'toolResult', 'assistant', 'custom']);
  expect(server.requests[2]!.bodyText).toContain('Is the task the user asked for finished?');
  const [readResult, writeResult] = page.entries.slice(3, 5).map((e) => (e.type === 'message' ? e.message : null)) as Array<Record<string, unknown>>;
  expect(readResult).toMatchObject({ toolName: 'read', status: 'ok' });
  expect(JSON.stringify(readResult!.content)).toContain('the launch is on friday');
  expect(writeResult).toMatchObject({ toolName: 'write', status: 'denied' });
  expect(() => readFileSync(join(dir, 'escape.txt'))).toThrow();
  // What the model was sent: the tools of the active plugins, and the read result in the second request.
  expect((server.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toEqual(
    expect.arrayContaining(['read', 'ls', 'find', 'grep', 'write', 'edit']),
  );
  expect(server.requests[1]!.bodyText).toContain('the launch is on friday');

  // A new run from an earlier leaf: edit the first message.
  const firstUser = page.entries[1]!;
  server.setScript(openAiStream({ text: 'Forked answer.' }));
  const forkSettled = c.waitFor('agent.emitted', isSettled, c.events.length);
  await c.call('chat.send', { sessionId: session.id, text: 'And the demo?', parentId: firstUser.parentId });
  await forkSettled;
  const tree = await c.call<{ nodes: TreeNode[]; leafId: string | null }>('sessions.tree', { sessionId: session.id });
  expect(tree.nodes.filter((n) => n.parentId === firstUser.parentId && n.role === 'user')).toHaveLength(2);
  const leafBefore = tree.leafId;

  // Restart: the same session and leaf come back, and the provider plugin serves again.
  await stop();
  const again = await start();
  const reopened = await again.client.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  expect(reopened.leafId).toBe(leafBefore);
  expect(reopened.entries.map(roleOf)).toEqual(['model_change', 'user', 'assistant']);
  await providerReady(again.shell, 'custom');
  server.setScript(openAiStream({ text: 'Still here.' }));
  const resumed = again.client.waitFor('agent.emitted', isSettled);
  await again.client.call('chat.send', { sessionId: session.id, text: 'Are you there?' });
  await resumed;
  const last = await again.client.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  expect(last.entries.map(roleOf)).toEqual(['model_change', 'user', 'assistant', 'user', 'assistant']);
});
