// An image and a text file sent with a message reach a loopback model in each dialect's own format, through
// the real provider plugin processes; the conversation stores the image once, as a blob it names by hash.
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { blobHash } from '../../src/main/sessions/index.ts';
import type { TranscriptPage } from '../../src/shared/sessions/index.ts';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { anthropicStream, openAiStream } from '../fixtures/provider-server.ts';

/** A real 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const attachments = [
  { kind: 'image', name: 'dot.png', dataUrl: `data:image/png;base64,${PNG}` },
  { kind: 'text', name: 'notes.txt', text: 'the launch is on Tuesday' },
];

let h: HeadlessUnderTest;

beforeEach(async () => {
  h = await openHeadless({ prefix: 'amber-image-send-', core: (dir) => ({ workspace: join(dir, 'home', 'ws'), home: join(dir, 'home') }) });
});

afterEach(() => h.close());

async function send(): Promise<string> {
  const session = await h.client.call<{ id: string }>('sessions.create', {});
  await h.send(session.id, 'What is in the picture?', { attachments });
  return session.id;
}

async function storedImage(sessionId: string): Promise<Record<string, unknown>> {
  const page = await h.client.call<TranscriptPage>('sessions.page', { sessionId });
  const user = page.entries.find((e) => e.type === 'message' && e.message.role === 'user');
  const content = user?.type === 'message' ? (user.message.content as Record<string, unknown>[]) : [];
  return content.find((p) => p['type'] === 'image')!;
}

test('OpenAI-compatible: the image goes as an image_url data URL part, the file as text with its name', async () => {
  await h.connect({ model: 'gpt-4o-mini' });
  h.server.setScript([openAiStream({ text: 'A dot.' })]);
  const sessionId = await send();
  const body = h.server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
  const user = body.messages.find((m) => m.role === 'user')!;
  expect(user.content).toEqual([
    { type: 'text', text: 'What is in the picture?' },
    { type: 'text', text: 'Attached file notes.txt:\n```\nthe launch is on Tuesday\n```' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
  ]);
  // Stored once, named by its hash; the window reads it back through blobs.get.
  const image = await storedImage(sessionId);
  const hash = blobHash(Buffer.from(PNG, 'base64'));
  expect(image).toEqual({ type: 'image', mimeType: 'image/png', blob: hash });
  expect(await h.client.call('blobs.get', { hash })).toEqual({ mimeType: 'image/png', dataUrl: `data:image/png;base64,${PNG}` });
});

test('Anthropic: the image goes as an image block with a base64 source', async () => {
  await h.connect({ providerId: 'anthropic', baseUrl: h.server.url, apiKey: 'sk-ant-test', model: 'claude-3-5-haiku-20241022' });
  h.server.setScript([anthropicStream({ text: 'A dot.' })]);
  await send();
  const body = h.server.requests.at(-1)!.body as { messages: { role: string; content: Record<string, unknown>[] }[] };
  const user = body.messages.find((m) => m.role === 'user')!;
  const blocks = user.content.map(({ cache_control: _cache, ...block }) => block);
  expect(blocks).toEqual([
    { type: 'text', text: 'What is in the picture?' },
    { type: 'text', text: 'Attached file notes.txt:\n```\nthe launch is on Tuesday\n```' },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
  ]);
});

test('a model the catalog says reads no images is refused the image with a sentence: nothing is stored or sent', async () => {
  await h.connect({ model: 'gpt-3.5-turbo' });
  const models = await h.client.call<{ models: { modelId: string; images: boolean | null }[] }>('chat.models', {
    sessionId: (await h.client.call<{ id: string }>('sessions.create', {})).id,
  });
  expect(models.models.find((m) => m.modelId === 'gpt-3.5-turbo')?.images).toBe(false);
  const session = await h.client.call<{ id: string }>('sessions.create', {});
  const before = h.server.requests.length;
  await expect(h.client.call('chat.send', { sessionId: session.id, text: 'What is in the picture?', attachments })).rejects.toThrow(
    'chat.send: invalid_input: gpt-3.5-turbo does not accept images: remove the image or choose a model that reads images.',
  );
  expect((await h.client.call<TranscriptPage>('sessions.page', { sessionId: session.id })).entries).toEqual([]);
  expect(h.server.requests.length).toBe(before);
});
