// An MCP tool that answers with an image, end to end: the reference server's get-tiny-image through the mcp
// plugin's process; the result is stored with the image as a blob (checked: a real PNG), and the next request
// to the loopback model carries it in the OpenAI-compatible form (the tool message's text, then the image as
// an image_url part of a user message, since a tool message carries text only).
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Entry, TranscriptPage } from '../../src/shared/sessions/index.ts';
import type { HeadlessUnderTest } from '../fixtures/headless-under-test.ts';
import { openAiStream } from '../fixtures/provider-server.ts';
import { registered } from '../fixtures/registered.ts';
import { openEverythingHeadless } from './open-everything-headless.ts';

let h: HeadlessUnderTest;

beforeEach(async () => {
  h = await openEverythingHeadless('amber-mcp-image-');
});

afterEach(() => h.close());

test('an MCP tool result image is stored as a blob, shown by hash, and sent to the model as an image_url part', async () => {
  const { shell: s, client: c, server } = h;
  await h.connect();
  const tools = s.app.plugins.registries.tools;
  await registered(() => tools.get('mcp__everything__get-tiny-image') !== undefined, tools);

  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_img', name: 'mcp__everything__get-tiny-image', arguments: {} }] }),
    openAiStream({ text: 'It is the MCP logo.' }),
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'mcp image' });
  const asked = c.waitFor<{ id: string }>('approval.requested');
  const settled = h.send(session.id, 'Show me the tiny image.');
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
