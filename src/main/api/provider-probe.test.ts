import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { probeProvider, redactSecret } from './provider-probe.ts';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

test('lists the models of a server that answers, sending the key', async () => {
  let auth: string | undefined;
  const base = await serve((req, res) => {
    auth = req.headers.authorization;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: 'small' }, { id: 'large' }] }));
  });
  expect(await probeProvider({ baseUrl: `${base}/`, apiKey: 'k1' })).toEqual({ ok: true, models: ['small', 'large'], message: 'Connected: 2 models available.' });
  expect(auth).toBe('Bearer k1');
});

test('a refused key and an unreachable server say what to fix', async () => {
  const base = await serve((_req, res) => {
    res.statusCode = 401;
    res.end('{}');
  });
  expect(await probeProvider({ baseUrl: base, apiKey: 'bad' })).toMatchObject({ ok: false, message: expect.stringContaining('refused the API key') });
  expect(await probeProvider({ baseUrl: 'http://127.0.0.1:9/v1' })).toMatchObject({ ok: false, message: expect.stringContaining('Could not reach') });
});

const KEY = 'sk-live-echoed-0123456789';

test('a server that echoes the key in its error body never gets it back to the window', async () => {
  const base = await serve((req, res) => {
    res.statusCode = 400;
    res.end(JSON.stringify({ error: { message: `Model list unavailable for ${req.headers.authorization} (${encodeURIComponent(KEY)})` } }));
  });
  const result = await probeProvider({ baseUrl: base, apiKey: KEY });
  expect(result.ok).toBe(false);
  expect(result.message).toContain('Model list unavailable for Bearer [key removed]');
  expect(JSON.stringify(result)).not.toContain(KEY);
  expect(JSON.stringify(result)).not.toContain(encodeURIComponent(KEY));
});

test('a server that lists the key as a model id never gets it back to the window', async () => {
  const base = await serve((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: 'small' }, { id: `${req.headers['x-api-key']}` }, { id: `key:${KEY}` }] }));
  });
  const result = await probeProvider({ baseUrl: base, apiKey: KEY, dialect: 'anthropic' });
  expect(result.models).toEqual(['small', '[key removed]', 'key:[key removed]']);
  expect(JSON.stringify(result)).not.toContain(KEY);
});

test('a key the HTTP library refuses is not quoted back in its error', async () => {
  const base = await serve((_req, res) => res.end('{}'));
  const bad = `${KEY}\nX-Injected: 1`;
  const result = await probeProvider({ baseUrl: base, apiKey: bad });
  expect(result.ok).toBe(false);
  expect(result.message).not.toContain(KEY);
});

test('the key is removed from every form it may be echoed in', () => {
  const key = 'k "y"/+';
  expect(redactSecret(`raw ${key}, encoded ${encodeURIComponent(key)}, in JSON ${JSON.stringify(key)}`, key)).toBe('raw [key removed], encoded [key removed], in JSON "[key removed]"');
  expect(redactSecret('nothing to hide', undefined)).toBe('nothing to hide');
});
