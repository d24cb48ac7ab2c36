// True costs, end to end: the OpenAI-compatible provider plugin in its own process serves a model named
// gpt-4o-mini from a loopback server at a custom base URL; the reply's cost and the status bar follow the
// models.dev catalog's prices. A model nobody prices reads "cost unknown", never $0.00.
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ModelCatalog } from '../../src/main/providers/index.ts';
import type { TranscriptPage } from '../../src/shared/sessions/index.ts';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { openAiStream } from '../fixtures/provider-server.ts';

let h: HeadlessUnderTest;

beforeEach(async () => {
  h = await openHeadless({ prefix: 'amber-costs-', core: (dir) => ({ workspace: join(dir, 'home', 'ws'), home: join(dir, 'home') }) });
});

afterEach(() => h.close());

async function oneReply(model: string, usage: { input: number; output: number }): Promise<{ sessionId: string; cost: number | undefined }> {
  const c = h.client;
  await h.connect({ model });
  h.server.setScript([openAiStream({ text: 'Priced words.', usage })]);
  const session = await c.call<{ id: string }>('sessions.create', {});
  await h.send(session.id, 'Hello');
  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  const reply = page.entries.find((e) => e.type === 'message' && e.message.role === 'assistant');
  const usageOf = reply?.type === 'message' ? (reply.message as { usage?: { cost?: { total: number } } }).usage : undefined;
  return { sessionId: session.id, cost: usageOf?.cost?.total };
}

const costSegment = async (sessionId: string) =>
  (await h.client.call<{ segments: { id: string; text: string }[] }>('status.list', { sessionId })).segments.find((s) => s.id === 'core.cost')?.text;

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
