import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createOpenAiCompatibleStream, openAiRequestBody, resolvePreset } from '../../src/plugins/openai-compatible/index.ts';
import type { ProviderConfig, ProviderSeams } from '../../src/plugins/openai-compatible/index.ts';
import type { Message } from '../../src/shared/sessions/index.ts';
import { jsonError, jsonFixture, openAiStream, readWireJson, sseFixture, startProviderServer, type ProviderServer } from '../fixtures/provider-server.ts';
import { collect, instantSleep, MODEL, request, textOf } from './provider-test-kit.ts';

const KEY = 'sk-test-0123456789abcdef';
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
  return createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, apiKey: KEY, flavor: 'openai', ...config }, { sleep: sleeper.sleep, ...seams });
}

describe('OpenAI-compatible streaming', () => {
  test('streams text deltas and ends with a complete message, tokens and cost', async () => {
    server.setScript(sseFixture('openai/text.sse'));
    const { events, final, message } = await collect(stream());
    expect(events[0]).toEqual({ type: 'start' });
    expect(textOf(events, 'text_delta')).toBe('Hello, world!');
    expect(final.type).toBe('done');
    expect(message).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello, world!' }],
      stopReason: 'stop',
      model: 'fixture-model',
      provider: 'openai',
    });
    expect(message.usage).toMatchObject({ input: 200, output: 4, cacheRead: 1000, totalTokens: 1204 });
    // 200 × $2 + 4 × $10 + 1000 × $0.5, per million tokens
    expect(message.usage?.cost?.total).toBeCloseTo((200 * 2 + 4 * 10 + 1000 * 0.5) / 1e6, 12);
  });

  test('sends the chat-completions request the server expects', async () => {
    server.setScript(sseFixture('openai/text.sse'));
    await collect(stream());
    const [sent] = server.requests;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      model: 'fixture-model',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('maps history, tools, images and thinking level onto the wire format', () => {
    const messages: Message[] = [
      { role: 'user', content: 'What is in src/main.ts?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'Let me look.' },
          { type: 'toolCall', id: 'call_read_1', name: 'read', arguments: { path: 'src/main.ts' } },
        ],
        stopReason: 'toolUse',
      },
      { role: 'toolResult', toolCallId: 'call_read_1', toolName: 'read', content: [{ type: 'text', text: 'console.log(1)' }], isError: false },
      { role: 'assistant', content: [{ type: 'text', text: 'half a rep' }], stopReason: 'aborted' },
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
    const body = openAiRequestBody(request({ messages, tools, maxTokens: 1024, thinkingLevel: 'high' }), resolvePreset('openai'));
    expect(body).toEqual(readWireJson('openai/request-tools.json'));
  });

  test('assembles tool calls whose arguments are split across chunks', async () => {
    server.setScript(sseFixture('openai/tool-calls-split.sse'));
    const { events, message } = await collect(stream());
    expect(message.stopReason).toBe('toolUse');
    expect(message.content).toEqual([
      { type: 'toolCall', id: 'call_read_1', name: 'read', arguments: { path: 'src/main.ts' } },
      { type: 'toolCall', id: 'call_grep_2', name: 'grep', arguments: { pattern: 'TODO', path: '.' } },
    ]);
    const deltas = events.filter((e) => e.type === 'toolcall_delta');
    expect(deltas[0]).toEqual({ type: 'toolcall_delta', index: 0, id: 'call_read_1', name: 'read', argumentsDelta: '' });
    expect(
      deltas
        .filter((d) => d.index === 1)
        .map((d) => d.argumentsDelta)
        .join(''),
    ).toBe('{"pattern": "TODO", "path": "."}');
    expect(deltas.filter((d) => d.argumentsDelta === '' && d.id === undefined)).toEqual([]);
  });

  test('the same reply gives the same message whether split mid-line, streamed whole, or buffered', async () => {
    server.setScript([
      sseFixture('openai/tool-calls-split.sse', { chunkBytes: 7 }),
      openAiStream({ toolCalls: [{ id: 'call_ls_1', name: 'ls', arguments: { path: '.' } }], argumentPieces: 1 }),
      jsonFixture('openai/completion.json'),
    ]);
    const split = await collect(stream());
    expect(split.message.content).toHaveLength(2);
    expect(split.message.content[1]).toEqual({ type: 'toolCall', id: 'call_grep_2', name: 'grep', arguments: { pattern: 'TODO', path: '.' } });
    const whole = await collect(stream());
    const buffered = await collect(stream());
    expect(buffered.message.content).toEqual(whole.message.content);
    expect(buffered.message.content).toEqual([{ type: 'toolCall', id: 'call_ls_1', name: 'ls', arguments: { path: '.' } }]);
    expect(buffered.message.stopReason).toBe('toolUse');
    expect(buffered.events.some((e) => e.type === 'toolcall_delta')).toBe(true);
    expect(buffered.message.usage).toMatchObject({ input: 50, output: 12 });
  });

  test('keeps reasoning deltas from reasoning_content (DeepSeek) and reasoning (Ollama)', async () => {
    server.setScript([sseFixture('openai/reasoning.sse'), sseFixture('openai/ollama-reasoning.sse')]);
    const deepseek = await collect(stream({ flavor: 'deepseek' }));
    expect(textOf(deepseek.events, 'thinking_delta')).toBe('The user asks 2+2. That is 4.');
    expect(deepseek.message.content).toEqual([
      { type: 'thinking', thinking: 'The user asks 2+2. That is 4.' },
      { type: 'text', text: '4' },
    ]);
    expect(deepseek.message.usage).toMatchObject({ input: 14, output: 20 });
    const ollama = await collect(stream({ flavor: 'ollama', apiKey: undefined }));
    expect(ollama.message.content).toEqual([
      { type: 'thinking', thinking: 'Short answer.' },
      { type: 'text', text: 'Hi there.' },
    ]);
    expect(server.requests[1].headers.authorization).toBeUndefined();
  });

  test('a <think> block at the start of the content is kept as thinking (local reasoning models)', async () => {
    server.setScript(openAiStream({ text: ['<thi', 'nk>\nCount: 2+2.</thi', 'nk>\n\n', '4'] }));
    const { events, message } = await collect(stream({ flavor: 'lmstudio', apiKey: undefined }));
    expect(message.content).toEqual([
      { type: 'thinking', thinking: '\nCount: 2+2.' },
      { type: 'text', text: '4' },
    ]);
    expect(textOf(events, 'thinking_delta')).toBe('\nCount: 2+2.');
  });

  test('arguments that are not JSON become {} with the raw text kept', async () => {
    server.setScript({
      kind: 'sse',
      frames: [
        { data: { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'read', arguments: '{"path": ' } }] } }] } },
        { data: { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] } },
        'data: [DONE]\n\n',
      ],
    });
    const { message } = await collect(stream());
    expect(message.content).toEqual([{ type: 'toolCall', id: 'c1', name: 'read', arguments: {}, rawArguments: '{"path": ' }]);
  });

  test('a length stop is reported as length', async () => {
    server.setScript(openAiStream({ text: 'cut', finish: 'length' }));
    expect((await collect(stream())).message.stopReason).toBe('length');
  });
});

describe('OpenAI-compatible errors and retries', () => {
  test('429 with Retry-After waits as asked, then succeeds', async () => {
    server.setScript([jsonFixture('openai/rate-limit.json', 429, { 'retry-after': '2' }), openAiStream({ text: 'ok' })]);
    const { final, message } = await collect(stream());
    expect(final.type).toBe('done');
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(sleeper.waits).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
  });

  test('a Retry-After longer than the cap ends the call at once with a rate-limit error', async () => {
    server.setScript([jsonFixture('openai/rate-limit.json', 429, { 'retry-after': '3600' }), openAiStream({ text: 'never' })]);
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'rate_limit' });
    expect(message.errorMessage).toMatch(/asked to retry in 60 min/);
    expect(sleeper.waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  test('5xx is retried with exponential backoff, then reported as a server error', async () => {
    const fail = jsonFixture('openai/server-error.json', 500);
    server.setScript([fail, fail, fail, fail]);
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'server' });
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toMatch(/HTTP 500.*after 3 retries.*try again later/i);
    expect(sleeper.waits).toEqual([1000, 2000, 4000]);
    expect(server.requests).toHaveLength(4);
  });

  test('other 4xx are not retried', async () => {
    server.setScript([jsonError(400, "Invalid value for 'temperature'", { type: 'invalid_request_error' }), openAiStream({ text: 'never' })]);
    const { final } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'bad_request' });
    expect(server.requests).toHaveLength(1);
  });

  test('a context-overflow error is typed as such and not retried', async () => {
    server.setScript([jsonFixture('openai/context-overflow.json', 400), openAiStream({ text: 'never' })]);
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'context_overflow' });
    expect(message.errorMessage).toMatch(/too long for the model's context window/);
    expect(server.requests).toHaveLength(1);
  });

  test.each([
    [
      'LM Studio',
      400,
      {
        error:
          'Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of 4096 tokens, which is not enough. The number of tokens to keep from the initial prompt is greater than the context length.',
      },
    ],
    [
      'llama.cpp',
      400,
      { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } },
    ],
    ['Groq', 400, { error: { message: 'Please reduce the length of the messages or completion.', type: 'invalid_request_error' } }],
    ['a 413', 413, { error: { message: 'Request Entity Too Large' } }],
  ])('overflow from %s is detected', async (_who, status, body) => {
    server.setScript({ kind: 'json', status, body });
    expect((await collect(stream())).final).toMatchObject({ type: 'error', kind: 'context_overflow' });
  });

  test('401 is an auth error whose message never contains the key, even when the server echoes it', async () => {
    server.setScript(
      jsonError(401, `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, {
        code: 'invalid_api_key',
      }),
    );
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'auth' });
    expect(message.errorMessage).toMatch(/Check the API key/);
    expect(message.errorMessage).not.toContain(KEY);
    expect(JSON.stringify(final)).not.toContain(KEY);
  });

  test('a dropped connection is retried as a network error', async () => {
    server.setScript([{ kind: 'drop' }, openAiStream({ text: 'back' })]);
    const { final, message } = await collect(stream());
    expect(final.type).toBe('done');
    expect(message.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(sleeper.waits).toEqual([1000]);
  });

  test('an unreachable server ends with a network error naming the address, after one quick retry', async () => {
    const url = server.url;
    await server.close();
    server = await startProviderServer();
    // The default retries: a refused connection is asked again once, 250 ms later, not through the whole backoff.
    const s = createOpenAiCompatibleStream({ baseUrl: `${url}/v1`, flavor: 'custom' }, { sleep: sleeper.sleep });
    const { events, final, message } = await collect(s);
    expect(final).toMatchObject({ type: 'error', kind: 'network' });
    expect(message.errorMessage).toContain(`Could not reach OpenAI-compatible server at ${url}/v1`);
    expect(message.errorMessage).toMatch(/ECONNREFUSED/);
    expect(message.errorMessage).toMatch(/after 1 retry/);
    expect(sleeper.waits).toEqual([250]);
    // A wait that short is not told: the error follows before a notice could be read.
    expect(events.filter((e) => e.type === 'notice')).toEqual([]);
  });

  test('each wait before a retry is told as a notice before the retry is made', async () => {
    const fail = jsonFixture('openai/server-error.json', 503);
    server.setScript([{ kind: 'drop' }, fail, openAiStream({ text: 'back' })]);
    const { events, final } = await collect(stream());
    expect(final.type).toBe('done');
    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
    expect(notices).toEqual([
      expect.stringMatching(/^Could not reach OpenAI \(.+\); trying again in 1 s \(retry 1 of 3\)\.$/),
      'OpenAI answered HTTP 503; trying again in 2 s (retry 2 of 3).',
    ]);
    // Told before the reply starts: the notices come before any of its text.
    expect(events.findIndex((e) => e.type === 'notice')).toBeLessThan(events.findIndex((e) => e.type === 'text_delta'));
    expect(sleeper.waits).toEqual([1000, 2000]);
  });

  test('a mid-stream disconnect keeps the partial reply and says what happened', async () => {
    server.setScript(sseFixture('openai/text.sse', { disconnectAfter: 3 }));
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'network' });
    expect(message.stopReason).toBe('error');
    expect(message.content).toEqual([{ type: 'text', text: 'Hello,' }]);
    expect(message.errorMessage).toMatch(/partial reply is kept/);
    expect(server.requests).toHaveLength(1);
  });

  test('a stream that ends cleanly but without a finish reason is reported as cut', async () => {
    server.setScript({ kind: 'sse', frames: sseFixture('openai/text.sse').frames.slice(0, 3) });
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'network' });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello,' }]);
  });

  test('a stream that goes silent is cut after the idle timeout, keeping the partial reply', async () => {
    server.setScript(openAiStream({ text: ['one ', 'two'] }, { stallAfter: 2 }));
    const { final, message } = await collect(stream({}, { idleTimeoutMs: 50 }));
    expect(final).toMatchObject({ type: 'error', kind: 'network' });
    expect(message.errorMessage).toMatch(/sent nothing for 50 ms/);
    expect(message.content).toEqual([{ type: 'text', text: 'one ' }]);
    expect(await server.requests[0].outcome).toBe('client_closed');
  });

  test('time the consumer spends holding an event does not count as silence', async () => {
    // Chunks come every 10 ms; the consumer holds one event for 2.5× the idle timeout.
    server.setScript(openAiStream({ text: ['a', 'b'] }, { pace: { intervalMs: 10 } }));
    const events = [];
    for await (const e of stream({}, { idleTimeoutMs: 200 })(request(), new AbortController().signal)) {
      events.push(e);
      if (e.type === 'text_delta' && e.delta === 'a') await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'ab' }] } });
  });

  test('malformed SSE ends with a bad_stream error, never a throw', async () => {
    server.setScript(sseFixture('openai/malformed.sse'));
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'bad_stream' });
    expect(message.content).toEqual([{ type: 'text', text: 'Par' }]);
    expect(message.errorMessage).toMatch(/malformed stream event/);
  });

  test('a body that is not SSE at all is explained', async () => {
    server.setScript({
      kind: 'text',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: '{"error":"model \\"nope\\" not found, try pulling it first"}\n',
    });
    const { final, message } = await collect(stream());
    expect(final).toMatchObject({ type: 'error', kind: 'bad_stream' });
    expect(message.errorMessage).toMatch(/not a server-sent event stream: model "nope" not found/);
  });

  test('an error object inside the stream is typed (OpenRouter style)', async () => {
    server.setScript({
      kind: 'sse',
      frames: [{ data: { choices: [{ index: 0, delta: { content: 'a' } }] } }, { data: { error: { code: 502, message: 'Provider returned error' } } }],
    });
    const { final, message } = await collect(stream({ flavor: 'openrouter' }));
    expect(final).toMatchObject({ type: 'error', kind: 'server' });
    expect(message.content).toEqual([{ type: 'text', text: 'a' }]);
  });

  test('a content-filter stop is reported as blocked', async () => {
    server.setScript({
      kind: 'sse',
      frames: [{ data: { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'content_filter' }] } }, 'data: [DONE]\n\n'],
    });
    expect((await collect(stream())).final).toMatchObject({ type: 'error', kind: 'blocked' });
  });

  test('abort mid-stream cancels the HTTP request and keeps the partial reply', async () => {
    server.setScript(openAiStream({ text: ['one ', 'two ', 'three'] }, { stallAfter: 2 }));
    const controller = new AbortController();
    const events = [];
    for await (const e of stream()(request(), controller.signal)) {
      events.push(e);
      if (e.type === 'text_delta') controller.abort();
    }
    const final = events.at(-1);
    expect(final).toMatchObject({ type: 'error', kind: 'aborted', message: { stopReason: 'aborted', content: [{ type: 'text', text: 'one ' }] } });
    expect(await server.requests[0].outcome).toBe('client_closed');
  });

  test('abort stops at once even when the rest of the reply has already arrived', async () => {
    server.setScript(openAiStream({ text: ['one ', 'two ', 'three'] }));
    const controller = new AbortController();
    const events = [];
    for await (const e of stream()(request(), controller.signal)) {
      events.push(e);
      if (e.type === 'text_delta') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'error']);
    expect(events.at(-1)).toMatchObject({ kind: 'aborted', message: { stopReason: 'aborted', content: [{ type: 'text', text: 'one ' }] } });
  });

  test('abort during a retry wait ends at once as aborted', async () => {
    server.setScript([jsonError(503, 'busy'), openAiStream({ text: 'never' })]);
    const controller = new AbortController();
    const s = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, apiKey: KEY, flavor: 'openai' }, { sleep: async () => controller.abort() });
    const { final } = await collect(s, request(), controller.signal);
    expect(final).toMatchObject({ type: 'error', kind: 'aborted' });
    expect(server.requests).toHaveLength(1);
  });

  test('a consumer that stops iterating closes the connection', async () => {
    server.setScript(openAiStream({ text: ['a', 'b', 'c'] }, { stallAfter: 2 }));
    for await (const e of stream()(request(), new AbortController().signal)) {
      if (e.type === 'text_delta') break;
    }
    expect(await server.requests[0].outcome).toBe('client_closed');
  });
});

describe('OpenAI-compatible presets', () => {
  test('presets carry their base URLs; an unknown flavor falls back to plain OpenAI-compatible', () => {
    expect(resolvePreset('ollama').baseUrl).toBe('http://localhost:11434/v1');
    expect(resolvePreset('LM Studio').baseUrl).toBe('http://localhost:1234/v1');
    expect(resolvePreset('lm-studio').flavor).toBe('lmstudio');
    expect(resolvePreset('openrouter').baseUrl).toBe('https://openrouter.ai/api/v1');
    expect(resolvePreset('deepseek').baseUrl).toBe('https://api.deepseek.com/v1');
    expect(resolvePreset('groq').baseUrl).toBe('https://api.groq.com/openai/v1');
    expect(resolvePreset('openia').flavor).toBe('custom');
    expect(resolvePreset(undefined).flavor).toBe('custom');
  });

  test('a typo in the flavor still streams from the given base URL', async () => {
    server.setScript(sseFixture('openai/text.sse'));
    const { final } = await collect(stream({ flavor: 'olama' }));
    expect(final.type).toBe('done');
    expect(server.requests[0].path).toBe('/v1/chat/completions');
  });

  test('presets shape the body: token field, reasoning parameter', () => {
    const req = request({ maxTokens: 500, thinkingLevel: 'medium' });
    expect(openAiRequestBody(req, resolvePreset('openai'))).toMatchObject({ max_completion_tokens: 500, reasoning_effort: 'medium' });
    expect(openAiRequestBody(req, resolvePreset('groq'))).toMatchObject({ max_tokens: 500, reasoning_effort: 'medium' });
    expect(openAiRequestBody(req, resolvePreset('openrouter'))).toMatchObject({ max_tokens: 500, reasoning: { effort: 'medium' } });
    expect(openAiRequestBody(req, resolvePreset('deepseek'))).not.toHaveProperty('reasoning_effort');
    expect(openAiRequestBody({ ...req, model: { ...MODEL, reasoning: false } }, resolvePreset('openai'))).not.toHaveProperty('reasoning_effort');
  });

  test('custom without a base URL, or a keyed service without a key, fails before any request', async () => {
    const noUrl = await collect(createOpenAiCompatibleStream({ flavor: 'custom' }));
    expect(noUrl.final).toMatchObject({ type: 'error', kind: 'bad_request' });
    expect(noUrl.message.errorMessage).toMatch(/Set a base URL/);
    const noKey = await collect(createOpenAiCompatibleStream({ flavor: 'openai', baseUrl: `${server.url}/v1` }));
    expect(noKey.final).toMatchObject({ type: 'error', kind: 'auth' });
    expect(server.requests).toHaveLength(0);
  });
});
