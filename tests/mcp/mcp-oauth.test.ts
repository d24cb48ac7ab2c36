// OAuth sign-in of an HTTP MCP server through the plugin's own classes (McpConnection with its
// McpOAuthProvider, the sign-in and its loopback listener) against a loopback authorization server and
// the MCP server it protects (tests/fixtures/oauth-mcp-server.ts). The user's browser is a fetch that
// follows the authorization page's redirect.
import { afterEach, expect, test } from 'vitest';
import { McpConnection } from '../../src/plugins/mcp/mcp-connection.ts';
import { McpOAuthProvider } from '../../src/plugins/mcp/mcp-oauth-provider.ts';
import { startSignIn } from '../../src/plugins/mcp/mcp-sign-in.ts';
import { approveInBrowser, type OAuthMcpOptions, type OAuthMcpServer, startOAuthMcpServer } from '../fixtures/oauth-mcp-server.ts';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function setup(options: OAuthMcpOptions = {}, stored: string | null = null, clientId?: string) {
  const server = await startOAuthMcpServer(options);
  open.push(server);
  const saved: (string | null)[] = [];
  const provider = new McpOAuthProvider({ serverUrl: server.url, stored, onSave: (r) => saved.push(r), clientId });
  const conn = new McpConnection(
    { name: 'remote', source: 'settings', config: { url: server.url, headers: {} } },
    { workspace: process.cwd(), oauth: provider },
  );
  open.push({ close: () => conn.disconnect() });
  return { server, provider, conn, saved };
}

async function signIn(server: OAuthMcpServer, provider: McpOAuthProvider, conn: McpConnection, scope?: string) {
  const started = await startSignIn(server.url, provider, scope ? { scope } : {});
  const page = await approveInBrowser(started.url);
  expect(page.status).toBe(200);
  await started.done;
  await conn.restart();
  return started;
}

const text = (r: { content?: unknown }) => (r.content as { text: string }[])[0]!.text;

test('a server that answers 401 with OAuth metadata needs a sign-in; after it, its tools answer and the tokens are saved for the next start', async () => {
  const { server, provider, conn, saved } = await setup();
  await conn.connect();
  expect(conn.status()).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
  expect(conn.status().error).toMatch(/needs you to sign in.*Press Sign in/);
  // A connect alone registers nothing and asks for no token.
  expect(server.requests.filter((r) => r.path.startsWith('/as/register') || r.path.startsWith('/as/token'))).toEqual([]);

  const started = await signIn(server, provider, conn);
  const authorize = new URL(started.url);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('resource')).toBe(server.url);
  expect(authorize.searchParams.get('scope')).toBe('read');
  expect(new URL(authorize.searchParams.get('redirect_uri')!).hostname).toBe('127.0.0.1');
  expect(conn.status()).toMatchObject({ state: 'connected', signIn: 'signedIn', tools: 2 });
  expect(text(await conn.callTool('whoami', {}))).toBe('signed in as tester with scope read');

  const record = saved.at(-1)!;
  expect(JSON.parse(record)).toMatchObject({ url: server.url, tokens: { access_token: server.issued[0]!.token } });
  // The listener was for one use: it is closed.
  await expect(fetch(authorize.searchParams.get('redirect_uri')!)).rejects.toThrow();

  // A new start with the saved record: connected without signing in.
  const again = new McpOAuthProvider({ serverUrl: server.url, stored: record, onSave: () => {} });
  const conn2 = new McpConnection({ name: 'remote', source: 'settings', config: { url: server.url, headers: {} } }, { workspace: process.cwd(), oauth: again });
  open.push({ close: () => conn2.disconnect() });
  await conn2.connect();
  expect(conn2.status()).toMatchObject({ state: 'connected', signIn: 'signedIn' });
  expect(server.registrations).toHaveLength(1);
});

test('tokens are refreshed before they expire, and on a 401', async () => {
  // 30 s tokens are within the minute before expiry at once: every use refreshes first.
  const { server, provider, conn, saved } = await setup({ tokenTtl: 30 });
  await conn.connect();
  await signIn(server, provider, conn);
  const before = server.issued.length;
  expect(text(await conn.callTool('whoami', {}))).toMatch(/signed in/);
  expect(server.issued.slice(before).map((i) => i.grant)).toContain('refresh_token');
  expect(JSON.parse(saved.at(-1)!).tokens.access_token).toBe(server.issued.at(-1)!.token);

  // Revoked on the server: the 401 makes the transport refresh and retry.
  const long = await setup({ tokenTtl: 3600 });
  await long.conn.connect();
  await signIn(long.server, long.provider, long.conn);
  long.server.revokeAll();
  expect(text(await long.conn.callTool('whoami', {}))).toMatch(/signed in/);
  expect(long.server.issued.at(-1)!.grant).toBe('refresh_token');
});

test('a refused refresh returns the row to Sign in with the reason in words', async () => {
  const { server, provider, conn, saved } = await setup({ refuseRefresh: true });
  await conn.connect();
  await signIn(server, provider, conn);
  server.revokeAll();
  await expect(conn.callTool('whoami', {})).rejects.toThrow();
  expect(conn.status()).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
  expect(conn.status().error).toContain('The refresh token was revoked.');
  // The dropped tokens leave the saved record.
  expect(JSON.parse(saved.at(-1)!).tokens).toBeUndefined();
});

test('a call that needs more scope (403 insufficient_scope) asks for a sign-in with that scope, which then grants it', async () => {
  const { server, provider, conn } = await setup();
  await conn.connect();
  await signIn(server, provider, conn);
  await expect(conn.callTool('admin', {})).rejects.toThrow();
  expect(conn.status()).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
  expect(conn.status().error).toMatch(/needs more permission \(the scope 'read admin'\)/);
  const started = await signIn(server, provider, conn, provider.wantedScope!);
  expect(new URL(started.url).searchParams.get('scope')).toBe('read admin');
  expect(text(await conn.callTool('admin', {}))).toBe('admin done');
});

test('a server that answers 401 without OAuth metadata still says to add an Authorization header', async () => {
  const { startAuthProxy } = await import('./auth-proxy.ts');
  const proxy = await startAuthProxy('secret', null);
  open.push(proxy);
  const provider = new McpOAuthProvider({ serverUrl: proxy.url, stored: null, onSave: () => {} });
  const conn = new McpConnection({ name: 'plain', source: 'settings', config: { url: proxy.url, headers: {} } }, { workspace: process.cwd(), oauth: provider });
  open.push({ close: () => conn.disconnect() });
  await conn.connect();
  expect(conn.status().state).toBe('unauthorized');
  expect(conn.status().signIn).toBeUndefined();
  expect(conn.status().error).toMatch(/Add an Authorization header/);
});

test('where the authorization server offers no registration, the client id the user entered signs in, and nothing registers', async () => {
  const { server, provider, conn, saved } = await setup({ preRegistered: 'amber-by-hand' }, null, 'amber-by-hand');
  await conn.connect();
  expect(conn.status()).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
  const started = await signIn(server, provider, conn);
  expect(new URL(started.url).searchParams.get('client_id')).toBe('amber-by-hand');
  expect(conn.status()).toMatchObject({ state: 'connected', signIn: 'signedIn' });
  expect(server.requests.some((r) => r.path.startsWith('/as/register'))).toBe(false);
  expect(JSON.parse(saved.at(-1)!).client).toMatchObject({ client_id: 'amber-by-hand' });
});

test('without a client id, a server that offers no registration refuses the sign-in with a sentence and nothing is stored', async () => {
  const { server, provider, conn, saved } = await setup({ preRegistered: 'amber-by-hand' });
  await conn.connect();
  await expect(startSignIn(server.url, provider)).rejects.toThrow(/does not let Amber register itself: .*enter the client id it gives in the server's form/);
  expect(saved).toEqual([]);
});

test('a server of the 2025-03-26 specification (no resource metadata, its authorization server at its own origin) signs in too', async () => {
  const { server, provider, conn } = await setup({ legacy: true });
  await conn.connect();
  expect(conn.status()).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
  await signIn(server, provider, conn);
  expect(conn.status()).toMatchObject({ state: 'connected', signIn: 'signedIn' });
  expect(server.requests.some((r) => r.path === '/.well-known/oauth-authorization-server')).toBe(true);
});

test('Sign in pressed again replaces the first sign-in: the first page leads nowhere, the second signs in', async () => {
  const { server, provider, conn } = await setup();
  await conn.connect();
  const first = await startSignIn(server.url, provider);
  // As the plugin does: the first is cancelled and the second starts at once, before the first has ended.
  first.cancel();
  const second = await startSignIn(server.url, provider);
  await expect(first.done).rejects.toThrow('The sign-in was cancelled.');
  // The first one's listener is closed: its page cannot come back.
  await expect(approveInBrowser(first.url)).rejects.toThrow();
  expect((await approveInBrowser(second.url)).status).toBe(200);
  await second.done;
  await conn.restart();
  expect(conn.status()).toMatchObject({ state: 'connected', signIn: 'signedIn' });
});
