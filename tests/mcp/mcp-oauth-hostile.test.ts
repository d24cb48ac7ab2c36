// A hostile authorization server, one lie at a time: each sign-in is refused with a sentence, nothing is
// stored (the provider's onSave never hears a record), and the tests check what Amber sent it and the MCP
// server. Beside them, the loopback redirect listener's own edge: only its one GET /callback with its Host
// and the state Amber sent settles it, once.
import { afterEach, expect, test } from 'vitest';
import { McpConnection } from '../../src/plugins/mcp/mcp-connection.ts';
import { McpOAuthProvider } from '../../src/plugins/mcp/mcp-oauth-provider.ts';
import { startSignIn } from '../../src/plugins/mcp/mcp-sign-in.ts';
import { openLoopbackRedirect } from '../../src/plugins/mcp/loopback-redirect.ts';
import { approveInBrowser, type Hostility, startOAuthMcpServer } from '../fixtures/oauth-mcp-server.ts';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** Where the lie is told: before the authorization page (`page`: no URL is given) or after the browser came back (`return`). */
const CORPUS: { hostile: Hostility; when: 'page' | 'return'; refusal: RegExp; legacy?: boolean }[] = [
  // Found at the server's own origin (2025-03-26, no resource metadata), an issuer on another origin is refused.
  { hostile: 'legacy-foreign-issuer', when: 'page', refusal: /says it is https:\/\/impostor\.example \(a wrong issuer\)/, legacy: true },
  { hostile: 'wrong-issuer', when: 'page', refusal: /says it is https:\/\/impostor\.example \(a wrong issuer\)/ },
  { hostile: 'other-resource', when: 'page', refusal: /protected resource metadata is for https:\/\/elsewhere\.example\/mcp, not for/ },
  { hostile: 'metadata-redirect', when: 'page', refusal: /redirected Amber's OAuth request to another host \(127\.0\.0\.2:9\)/ },
  { hostile: 'endpoint-not-https', when: 'page', refusal: /authorization server's authorization endpoint http:\/\/auth\.example\.com is not https/ },
  { hostile: 'authorize-wrong-state', when: 'return', refusal: /state Amber did not send/ },
  { hostile: 'authorize-wrong-iss', when: 'return', refusal: /another authorization server than the one Amber asked/ },
  { hostile: 'token-other-audience', when: 'return', refusal: /token for another audience \(https:\/\/elsewhere\.example\/mcp\)/ },
  { hostile: 'token-huge', when: 'return', refusal: /answered more than 256 KB/ },
  { hostile: 'token-malformed', when: 'return', refusal: /The sign-in failed: .*Nothing was kept\./ },
  { hostile: 'token-not-bearer', when: 'return', refusal: /gave a 'mac' token; Amber uses only bearer tokens/ },
];

for (const { hostile, when, refusal, legacy } of CORPUS) {
  test(`a hostile authorization server (${hostile}) is refused with a sentence and nothing is stored`, async () => {
    const server = await startOAuthMcpServer({ hostile, ...(legacy ? { legacy } : {}) });
    open.push(server);
    const saved: (string | null)[] = [];
    const provider = new McpOAuthProvider({ serverUrl: server.url, stored: null, onSave: (r) => saved.push(r) });
    const conn = new McpConnection(
      { name: 'remote', source: 'settings', config: { url: server.url, headers: {} } },
      { workspace: process.cwd(), oauth: provider },
    );
    open.push({ close: () => conn.disconnect() });
    await conn.connect();

    if (when === 'page') {
      await expect(startSignIn(server.url, provider)).rejects.toThrow(refusal);
      expect(server.requests.some((r) => r.path.startsWith('/as/register') || r.path.startsWith('/as/authorize'))).toBe(false);
    } else {
      const started = await startSignIn(server.url, provider);
      await approveInBrowser(started.url);
      await expect(started.done).rejects.toThrow(refusal);
    }
    expect(saved).toEqual([]);
    expect(provider.signedIn).toBe(false);
    // No token of any kind reached the MCP server.
    expect(server.requests.filter((r) => r.path === '/mcp' && r.authorization !== undefined)).toEqual([]);
    // The row says why, and offers Sign in again.
    await conn.restart();
    expect(conn.status()).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
    expect(conn.status().error).toMatch(refusal);
  });
}

test('the redirect listener answers only its own GET /callback on its own Host, with the state Amber sent, and only once', async () => {
  const redirect = await openLoopbackRedirect({ issuer: () => 'http://issuer.test/as' });
  open.push(redirect);
  const url = new URL(redirect.redirectUrl);
  let settled = false;
  redirect.code.then(
    () => (settled = true),
    () => (settled = true),
  );
  // Another path, another method, another Host (a page rebinding a name to 127.0.0.1): not for it.
  expect((await fetch(new URL('/other?code=x', url))).status).toBe(404);
  expect((await fetch(`${redirect.redirectUrl}?code=x&state=${redirect.state}`, { method: 'POST' })).status).toBe(404);
  const { request } = await import('node:http');
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path: `/callback?code=x&state=${redirect.state}`, headers: { host: 'evil.example' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(404);
  expect(settled).toBe(false);
  // The right one, with an iss of the issuer (trailing slash aside): settles with the code.
  const ok = await fetch(`${redirect.redirectUrl}?code=the-code&state=${redirect.state}&iss=${encodeURIComponent('http://issuer.test/as/')}`);
  expect(ok.status).toBe(200);
  await expect(redirect.code).resolves.toBe('the-code');
  // One use: the listener is gone.
  await expect(fetch(`${redirect.redirectUrl}?code=again&state=${redirect.state}`)).rejects.toThrow();
});

test('a redirect carrying the authorization server’s error says it in words', async () => {
  const redirect = await openLoopbackRedirect();
  open.push(redirect);
  const page = await fetch(`${redirect.redirectUrl}?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=${redirect.state}`);
  expect(page.status).toBe(400);
  expect(await page.text()).toContain('The user said no');
  await expect(redirect.code).rejects.toThrow('The authorization server did not sign you in: The user said no.');
});
