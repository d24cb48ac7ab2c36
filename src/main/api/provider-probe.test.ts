import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { probeProvider } from './provider-probe.ts';

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
