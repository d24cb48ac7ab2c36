// True costs, end to end: the OpenAI-compatible provider plugin in its own process serves a model named
// gpt-4o-mini from a loopback server at a custom base URL; the reply's cost and the status bar follow the
// models.dev catalog's prices. A model nobody prices reads "cost unknown", never $0.00.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';
import { ModelCatalog } from '../../src/main/providers/index.ts';
import type { TranscriptPage } from '../../src/shared/sessions/index.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { connectWs, type WsClient } from '../fixtures/ws-client.ts';

let dir: string;
let server: ProviderServer;
let shell: HeadlessShell | null = null;
let client: WsClient | null = null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-costs-'));
  mkdirSync(join(dir, 'home', 'ws'), { recursive: true });
  server = await startProviderServer();
  shell = await startHeadless({
    dataDir: join(dir, 'data'),
    rendererDir: join(dir, 'renderer'),
    core: { workspace: join(dir, 'home', 'ws'), home: join(dir, 'home') },
  });
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

async function oneReply(model: string, usage: { input: number; output: number }): Promise<{ sessionId: string; cost: number | undefined }> {
  const c = client!;
  await c.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model });
  await providerReady(shell!, 'custom');
  server.setScript([openAiStream({ text: 'Priced words.', usage })]);
  const session = await c.call<{ id: string }>('sessions.create', {});
  const settled = c.waitFor('agent.emitted', isSettled, c.events.length);
  await c.call('chat.send', { sessionId: session.id, text: 'Hello' });
  await settled;
  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  const reply = page.entries.find((e) => e.type === 'message' && e.message.role === 'assistant');
  const usageOf = reply?.type === 'message' ? (reply.message as { usage?: { cost?: { total: number } } }).usage : undefined;
  return { sessionId: session.id, cost: usageOf?.cost?.total };
}

const costSegment = async (sessionId: string) =>
  (await client!.call<{ segments: { id: string; text: string }[] }>('status.list', { sessionId })).segments.find((s) => s.id === 'core.cost')?.text;

test('a reply from gpt-4o-mini behind a custom base URL costs what the catalog says, and the status bar shows it', async () => {
  const catalog = new ModelCatalog();
  await catalog.ready();
  const prices = catalog.find('gpt-4o-mini')!.pricing!;
  const { sessionId, cost } = await oneReply('gpt-4o-mini', { input: 200_000, output: 50_000 });
  const expected = (200_000 * prices.input + 50_000 * prices.output) / 1e6;
  expect(expected).toBeGreaterThan(0);
  expect(cost).toBeCloseTo(expected, 10);
  expect(await costSegment(sessionId)).toBe(`$${expected.toFixed(2)}`);
});

test('a model nobody prices shows "cost unknown", never $0.00', async () => {
  const { sessionId, cost } = await oneReply('my-own-finetune-7b', { input: 1000, output: 100 });
  expect(cost).toBeUndefined();
  expect(await costSegment(sessionId)).toBe('cost unknown');
});
