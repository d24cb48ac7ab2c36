import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchBalance } from './balance-client.ts';
import { OPENROUTER_KEY_HINT, parseOpenRouterCredits } from './openrouter-credits.ts';
import type { BalanceSource, WalletReading } from './wallet-reading.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server | null = null;

async function serve(handler: Handler): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/credits`;
}

afterEach(async () => {
  const s = server;
  server = null;
  if (!s) return;
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
});

const KEY = 'sk-or-test-key-1234';

async function ask(url: string, timeoutMs = 5000): Promise<WalletReading> {
  const source: BalanceSource = { service: 'OpenRouter', configKey: 'openrouter', url, keyHint: OPENROUTER_KEY_HINT };
  return fetchBalance(source, (body) => parseOpenRouterCredits(source, body), { apiKey: KEY, timeoutMs });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

describe('asking a balance endpoint', () => {
  it('sends the key as a bearer token and reads the balance', async () => {
    let auth: string | undefined;
    const url = await serve((req, res) => {
      auth = req.headers.authorization;
      json(res, 200, { data: { total_credits: 20, total_usage: 5 } });
    });
    const reading = await ask(url);
    expect(auth).toBe(`Bearer ${KEY}`);
    expect(reading.ok && reading.balance).toBe(15);
  });

  it('a refused key says which setting to check, quotes the server and never shows the key', async () => {
    const url = await serve((_req, res) => json(res, 401, { error: { code: 401, message: `No auth credentials found for ${KEY}` } }));
    const reading = await ask(url);
    expect(reading).toMatchObject({ ok: false, failure: 'auth' });
    if (reading.ok) return;
    expect(reading.error).toContain('HTTP 401');
    expect(reading.error).toContain('Check the OpenRouter API key in Settings → Plugins → Wallet → Settings.');
    expect(reading.error).toContain('management key');
    expect(reading.error).toContain('No auth credentials found');
    expect(reading.error).not.toContain(KEY);
  });

  it('a rate limit says it will ask again and how long the server asked to wait', async () => {
    const url = await serve((_req, res) => json(res, 429, { error: { code: 429, message: 'Rate limit exceeded' } }, { 'retry-after': '30' }));
    const reading = await ask(url);
    expect(reading).toMatchObject({ ok: false, failure: 'rate_limit' });
    if (!reading.ok) expect(reading.error).toContain('wait 30 s');
  });

  it('a server error says to try again later', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(500);
      res.end('Internal Server Error');
    });
    const reading = await ask(url);
    expect(reading).toMatchObject({ ok: false, failure: 'server' });
    if (!reading.ok) expect(reading.error).toContain('HTTP 500');
  });

  it('a body that is not JSON points at the base URL', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": {"total_credits": 1,');
    });
    const reading = await ask(url);
    expect(reading).toMatchObject({ ok: false, failure: 'bad_response' });
    if (!reading.ok) expect(reading.error).toContain('not JSON');
  });

  it('a server that never answers times out', async () => {
    const url = await serve(() => {
      // Holds the request open; the client must give up on its own.
    });
    const reading = await ask(url, 150);
    expect(reading).toMatchObject({ ok: false, failure: 'timeout' });
    if (!reading.ok) expect(reading.error).toContain('within 150 ms');
  });

  it('a host nobody listens on is a network error naming the URL', async () => {
    const url = await serve((_req, res) => json(res, 200, {}));
    const s = server!;
    server = null;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    const reading = await ask(url);
    expect(reading).toMatchObject({ ok: false, failure: 'network' });
    if (!reading.ok) expect(reading.error).toContain(url);
  });

  it('never quotes a key the HTTP library refused as a header value', async () => {
    const url = await serve((_req, res) => json(res, 200, { data: { total_credits: 1, total_usage: 0 } }));
    const source: BalanceSource = { service: 'OpenRouter', configKey: 'openrouter', url };
    const badKey = `${KEY}\nX-Injected: 1`;
    const reading = await fetchBalance(source, (body) => parseOpenRouterCredits(source, body), { apiKey: badKey, timeoutMs: 5000 });
    expect(reading).toMatchObject({ ok: false, failure: 'network' });
    expect(JSON.stringify(reading)).not.toContain(KEY);
  });
});
