import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { anthropicRequestBody, createAnthropicStream } from '../../src/plugins/anthropic/index.ts';
import type { ProviderConfig, ProviderSeams } from '../../src/plugins/anthropic/index.ts';
import type { Message } from '../../src/shared/sessions/index.ts';
import { anthropicStream, jsonFixture, readWireJson, sseFixture, startProviderServer, type ProviderServer } from '../fixtures/provider-server.ts';
import { collect, instantSleep, request, textOf } from './provider-test-kit.ts';

const KEY = 'sk-ant-test-0123456789';
let server: ProviderServer;
let sleeper: ReturnType<typeof instantSleep>;

beforeEach(async () => {
  server = await startProviderServer();
  sleeper = instantSleep();
});
afterEach(async () => {
  await server.close();
});

function stream(config: Partial<ProviderConfig> = {}, seams: ProviderSeams = {}) {
  return createAnthropicStream({ baseUrl: server.url, apiKey: KEY, flavor: 'anthropic', ...config }, { sleep: sleeper.sleep, ...seams });
}

describe('Anthropic Messages streaming', () => {
  test('streams text blocks and maps usage, cache tokens and cost', async () => {
    server.setScript(sseFixture('anthropic/text.sse'));
    const { events, final, message } = await collect(stream());
    expect(final.type).toBe('done');
    expect(textOf(events, 'text_delta')).toBe('Hello from Claude.');
    expect(message).toMatchObject({ content: [{ type: 'text', text: 'Hello from Claude.' }], stopReason: 'stop', provider: 'anthropic' });
    expect(message.usage).toMatchObject({ input: 25, output: 12, cacheRead: 2000, cacheWrite: 100, totalTokens: 2137 });
    expect(message.usage?.cost?.total).toBeCloseTo((25 * 2 + 12 * 10 + 2000 * 0.5 + 100 * 4) / 1e6, 12);
    const [sent] = server.requests;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({
      model: 'fixture-model',
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
    });
  });

  test('keeps signed thinking and assembles tool_use input from input_json_delta', async () => {
    server.setScript(sseFixture('anthropic/thinking-tool-use.sse'));
    const { events, message } = await collect(stream());
    expect(textOf(events, 'thinking_delta')).toBe('I should read the file before answering.');
    expect(message.stopReason).toBe('toolUse');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'I should read the file before answering.', thinkingSignature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { type: 'text', text: 'Reading it now.' },
      { type: 'toolCall', id: 'toolu_01A09q90qw90lq917835lq9', name: 'read', arguments: { path: 'README.md', limit: 20 } },
    ]);
    const tool = events.filter((e) => e.type === 'toolcall_delta');
    expect(tool[0]).toEqual({ type: 'toolcall_delta', index: 0, id: 'toolu_01A09q90qw90lq917835lq9', name: 'read', argumentsDelta: '' });
    expect(tool.map((t) => t.argumentsDelta)).toEqual(['', '{"path": "READ', 'ME.md", "limit": 20}']);
    expect(message.usage).toMatchObject({ input: 512, output: 89 });
  });

  test('split mid-line, streamed whole or buffered, a reply gives the same message', async () => {
    const turn = { text: 'Listing.', toolCalls: [{ id: 'toolu_ls', name: 'ls', arguments: { path: '.' } }] };
    server.setScript([anthropicStream(turn, { chunkBytes: 5 }), anthropicStream(turn), jsonFixture('anthropic/message.json')]);
    const split = await collect(stream());
    const whole = await collect(stream());
    const buffered = await collect(stream());
    const expected = [
      { type: 'text', text: 'Listing.' },
      { type: 'toolCall', id: 'toolu_ls', name: 'ls', arguments: { path: '.' } },
    ];
    expect(split.message.content).toEqual(expected);
    expect(whole.message.content).toEqual(expected);
    expect(buffered.message.content).toEqual(expected);
    expect(buffered.message.stopReason).toBe('toolUse');
    expect(buffered.message.usage).toMatchObject({ input: 40, output: 15 });
  });

  test('maps history, tool results, signed thinking, images and thinking budget onto the wire format', () => {
    const messages: Message[] = [
      { role: 'user', content: 'What is in src/main.ts?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Read it first.', thinkingSignature: 'sig-1' },
          { type: 'thinking', thinking: 'unsigned, from another provider' },
          { type: 'text', text: 'Let me look.' },
          { type: 'toolCall', id: 'call_read_1', name: 'read', arguments: { path: 'src/main.ts' } },
          { type: 'toolCall', id: 'call_x|2', name: 'ls', arguments: {} },
        ],
        stopReason: 'toolUse',
      },
      { role: 'toolResult', toolCallId: 'call_read_1', toolName: 'read', content: [{ type: 'text', text: 'console.log(1)' }], isError: false },
      { role: 'toolResult', toolCallId: 'call_x|2', toolName: 'ls', content: [{ type: 'text', text: 'no such dir' }], isError: true },
      { role: 'assistant', content: [{ type: 'text', text: 'boom' }], stopReason: 'error', errorMessage: 'x' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And this?' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
    ];
    const tools = [
      {
        name: 'read',
        description: 'Read a file',
        readOnly: true,
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ];
    expect(anthropicRequestBody(request({ messages, tools, thinkingLevel: 'high' }))).toEqual(readWireJson('anthropic/request-tools.json'));
  });

  test('max_tokens stops are length', async () => {
    server.setScript(anthropicStream({ text: 'cut', finish: 'length' }));
    expect((await collect(stream())).message.stopReason).toBe('length');
  });
});

describe('Anthropic errors and retries', () => {
  test('"prompt is too long" is a context overflow, not retried', async () => {
    server.setScript([jsonFixture('anthropic/prompt-too-long.json', 400), anthropicStream({ text: 'never' })]);
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'context_overflow' });
    expect(message.errorMessage).toMatch(/prompt is too long: 213462 tokens > 200000 maximum/);
    expect(server.requests).toHaveLength(1);
  });

  test('529 overloaded is retried, 429 honours Retry-After', async () => {
    server.setScript([
      jsonFixture('anthropic/overloaded.json', 529),
      jsonFixture('anthropic/rate-limit.json', 429, { 'retry-after': '7' }),
      sseFixture('anthropic/text.sse'),
    ]);
    const { final } = await collect(stream());
    expect(final.type).toBe('done');
    expect(sleeper.waits).toEqual([1000, 7000]);
    expect(server.requests).toHaveLength(3);
  });

  test('an invalid key is an auth error that names no key', async () => {
    server.setScript(jsonFixture('anthropic/authentication.json', 401));
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'auth' });
    expect(message.errorMessage).toMatch(/invalid x-api-key.*Check the API key/);
    expect(JSON.stringify(final)).not.toContain(KEY);
  });

  test('an error event mid-stream ends the reply with its kind and keeps the partial text', async () => {
    server.setScript(sseFixture('anthropic/overloaded-midstream.sse'));
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'server' });
    expect(message.content).toEqual([{ type: 'text', text: 'Start' }]);
    expect(message.errorMessage).toMatch(/Overloaded/);
  });

  test('a stream cut before message_stop is a network error with the partial reply', async () => {
    server.setScript(sseFixture('anthropic/text.sse', { disconnectAfter: 5 }));
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'network', message: { stopReason: 'error' } });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Claude' }]);
  });

  test('malformed event data is a bad_stream error', async () => {
    server.setScript({
      kind: 'sse',
      frames: [
        ...sseFixture('anthropic/text.sse').frames.slice(0, 4),
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n',
      ],
    });
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'bad_stream' });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  test('abort mid-stream cancels the request and keeps the partial reply as aborted', async () => {
    server.setScript(anthropicStream({ text: ['a', 'b', 'c'] }, { stallAfter: 3 }));
    const controller = new AbortController();
    const events = [];
    for await (const e of stream()(request(), controller.signal)) {
      events.push(e);
      if (e.type === 'text_delta') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'error', kind: 'aborted', message: { stopReason: 'aborted', content: [{ type: 'text', text: 'a' }] } });
    expect(await server.requests[0].outcome).toBe('client_closed');
  });

  test('no key for the public API fails before any request', async () => {
    const { final } = await collect(createAnthropicStream({}));
    expect(final).toMatchObject({ type: 'error', kind: 'auth' });
  });
});
