// An MCP tool that answers with an image, end to end: the reference server's get-tiny-image through the mcp
// plugin's process; the result is stored with the image as a blob (checked: a real PNG), and the next request
// to the loopback model carries it in the OpenAI-compatible form (the tool message's text, then the image as
// an image_url part of a user message, since a tool message carries text only).
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
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-image-'));
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

function registered(check: () => boolean, registry: { onDidChange(l: () => void): { dispose(): void } }): Promise<void> {
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

test('an MCP tool result image is stored as a blob, shown by hash, and sent to the model as an image_url part', async () => {
  shell = await startHeadless({ dataDir: join(dir, 'data'), rendererDir: join(dir, 'renderer'), core: { workspace: join(dir, 'workspace') } });
  client = await connectWs(shell.port, shell.token);
  const s = shell;
  const c = client;
  await c.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model: 'loop-model' });
  await registered(() => s.app.plugins.registries.providers.get('custom') !== undefined, s.app.plugins.registries.providers);
  const tools = s.app.plugins.registries.tools;
  await registered(() => tools.get('mcp__everything__get-tiny-image') !== undefined, tools);

  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_img', name: 'mcp__everything__get-tiny-image', arguments: {} }] }),
    openAiStream({ text: 'It is the MCP logo.' }),
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'mcp image' });
  const asked = c.waitFor<{ id: string }>('approval.requested');
  const settled = c.waitFor('agent.emitted', (e: { type?: string }) => e.type === 'agent_settled');
  await c.call('chat.send', { sessionId: session.id, text: 'Show me the tiny image.' });
  await c.call('approvals.answer', { questionId: (await asked).id, answer: 'once' });
  await settled;

  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  const result = page.entries.find((e: Entry) => e.type === 'message' && e.message.role === 'toolResult');
  const content = result?.type === 'message' ? (result.message.content as Record<string, unknown>[]) : [];
  expect(content[0]).toMatchObject({ type: 'text', text: expect.stringContaining("Here's the image you requested:") });
  expect(content[1]).toEqual({ type: 'image', mimeType: 'image/png', blob: expect.stringMatching(/^[0-9a-f]{64}$/) });
  const stored = await c.call<{ mimeType: string; dataUrl: string }>('blobs.get', { hash: content[1]!['blob'] });
  const png = Buffer.from(stored.dataUrl.slice('data:image/png;base64,'.length), 'base64');
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

  const messages = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
  const tool = messages.findIndex((m) => m.role === 'tool');
  expect(messages[tool]!.content).toContain("Here's the image you requested:");
  expect(messages[tool + 1]).toEqual({
    role: 'user',
    content: [
      { type: 'text', text: 'The images the tool results above returned:' },
      { type: 'image_url', image_url: { url: stored.dataUrl } },
    ],
  });
});
