import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { MAX_PROBE_MESSAGE_CHARS, MAX_PROBE_MODELS } from '../../shared/plugins/index.ts';
import { listAnthropicModels } from '../anthropic/anthropic-models.ts';
import { listOpenAiCompatibleModels } from '../openai-compatible/openai-compatible-models.ts';
import { probeModels } from './probe-models.ts';

// The provider plugins' connection test against a real loopback server: the dialect's own listing, and the
// key kept out of the answer whatever the server or the HTTP library echo.

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const never = new AbortController().signal;
const KEY = 'sk-live-echoed-0123456789';

test('lists the model ids of a server that answers, sending the key', async () => {
  let auth: string | undefined;
  const base = await serve((req, res) => {
    auth = req.headers.authorization;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: 'small' }, { id: 'large' }, { id: 'small' }] }));
  });
  expect(await probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/v1/`, apiKey: 'k1-test' }, never)).toEqual({
    ok: true,
    models: ['small', 'large'],
    message: 'Connected: 2 models available.',
  });
  expect(auth).toBe('Bearer k1-test');
});

test('a server with no models connects, and says to type the name', async () => {
  const base = await serve((_req, res) => res.end(JSON.stringify({ data: [] })));
  expect(await probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/v1` }, never)).toEqual({
    ok: true,
    models: [],
    message: 'Connected, but the server lists no models; type the model name yourself.',
  });
});

test('a server that echoes the key in its error body, raw, URL-encoded or JSON-escaped, never gets it into the answer', async () => {
  const base = await serve((req, res) => {
    res.statusCode = 400;
    res.end(JSON.stringify({ error: { message: `Model list unavailable for ${req.headers.authorization} (${encodeURIComponent(KEY)})` } }));
  });
  const result = await probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/v1`, apiKey: KEY }, never);
  expect(result.ok).toBe(false);
  expect(result.message).toContain('Model list unavailable for Bearer [key removed] ([key removed])');
  expect(JSON.stringify(result)).not.toContain(KEY);
  expect(JSON.stringify(result)).not.toContain(encodeURIComponent(KEY));
});

test('a server that lists the key as a model id never gets it into the answer', async () => {
  const base = await serve((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: 'small' }, { id: `${req.headers['x-api-key']}` }, { id: `key:${KEY}` }] }));
  });
  const result = await probeModels(listAnthropicModels, { flavor: 'anthropic', baseUrl: base, apiKey: KEY }, never);
  expect(result.models).toEqual(['small', '[key removed]', 'key:[key removed]']);
  expect(JSON.stringify(result)).not.toContain(KEY);
});

test('a key the HTTP library refuses is not quoted back in its error', async () => {
  const base = await serve((_req, res) => res.end('{}'));
  const bad = `${KEY}\nX-Injected: 1`;
  const result = await probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/v1`, apiKey: bad }, never);
  expect(result.ok).toBe(false);
  expect(result.message).not.toContain(KEY);
});

test('a server that does not answer in time is given up on, with what to check', async () => {
  let arrived!: () => void;
  const reached = new Promise<void>((r) => (arrived = r));
  const base = await serve(() => arrived());
  const controller = new AbortController();
  const pending = probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/v1` }, controller.signal);
  await reached;
  controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
  expect(await pending).toEqual({ ok: false, models: [], message: `${base}/v1 did not answer in time. Check the address, and that the server is running.` });
});

test('a listing that throws still answers with a sentence, without the key', async () => {
  const result = await probeModels(
    async (config) => {
      throw new Error(`exploded with ${config.apiKey}`);
    },
    { flavor: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY },
    never,
  );
  expect(result).toEqual({ ok: false, models: [], message: 'The connection test failed: exploded with [key removed]' });
});

test('the answer stays within what main accepts: at most MAX_PROBE_MODELS ids, no over-long id, a capped message', async () => {
  const many = Array.from({ length: MAX_PROBE_MODELS + 500 }, (_, i) => ({ id: `m${i}` }));
  const base = await serve((req, res) => {
    if (req.url?.startsWith('/long')) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: 'x'.repeat(10_000) } }));
      return;
    }
    res.end(JSON.stringify({ data: [{ id: 'y'.repeat(201) }, ...many] }));
  });
  const listed = await probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/v1` }, never);
  expect(listed.models).toHaveLength(MAX_PROBE_MODELS);
  expect(listed.models[0]).toBe('m0');
  expect(listed.message).toBe(`Connected: ${MAX_PROBE_MODELS} models available.`);
  const long = await probeModels(listOpenAiCompatibleModels, { flavor: 'custom', baseUrl: `${base}/long` }, never);
  expect(long.message.length).toBe(MAX_PROBE_MESSAGE_CHARS);
  expect(long.message.endsWith('…')).toBe(true);
});
