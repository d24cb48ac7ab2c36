// OAuth sign-in over the API, through the real MCP plugin process: a server added in Settings that answers
// 401 with OAuth metadata says "Sign in needed"; mcp.signIn answers the authorization page, the browser
// (a fetch following its redirect) comes back to the plugin's loopback listener, and the server connects.
// The tokens are in the key file and nowhere in the database; a new core on the same data folder connects
// without signing in; Sign out and a changed URL drop them.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { McpListing } from '../../src/shared/api/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { approveInBrowser, type OAuthMcpServer, startOAuthMcpServer } from '../fixtures/oauth-mcp-server.ts';
import { untilMcpChange } from './mcp-api.ts';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function start(dataDir?: string): { t: AppUnderTest; events: McpListing[] } {
  const t = openApp({
    prefix: 'amber-mcp-oauth-',
    before: (d) => mkdirSync(join(d, 'workspace')),
    app: (d) => ({ workspace: join(d, 'workspace'), ...(dataDir ? { dataDir } : {}) }),
  });
  open.push(t);
  const events: McpListing[] = [];
  t.api.subscribe((event, payload) => {
    if (event === 'mcp.changed') events.push(payload as McpListing);
  });
  return { t, events };
}

const row = (name: string, want: Partial<McpListing['servers'][number]>) => (l: McpListing) =>
  l.servers.some((s) => s.name === name && Object.entries(want).every(([k, v]) => s[k as keyof typeof s] === v));
const whoami = async (t: AppUnderTest) => (await t.app.plugins.registries.tools.execute('mcp__remote__whoami', {})).content[0]!.text;
/** Every byte the database files hold (the WAL too), as text. */
const databaseBytes = (dataDir: string) =>
  ['amber.db', 'amber.db-wal', 'amber.sqlite', 'amber.sqlite-wal', 'sessions.db', 'sessions.db-wal']
    .map((f) => join(dataDir, f))
    .filter(existsSync)
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');

async function signIn(t: AppUnderTest, events: McpListing[], server: OAuthMcpServer) {
  await t.call('mcp.save', { name: 'remote', server: { transport: 'http', url: server.url, headers: [] } });
  const needed = await untilMcpChange(t.api, events, row('remote', { signIn: 'needed' }));
  expect(needed.servers[0]!.error).toMatch(/needs you to sign in/);
  const { url } = await t.call<{ url: string }>('mcp.signIn', { name: 'remote' });
  expect(new URL(url).pathname).toBe('/as/authorize');
  expect((await approveInBrowser(url)).status).toBe(200);
  await untilMcpChange(t.api, events, row('remote', { state: 'connected', signIn: 'signedIn' }));
}

test('a server signed in from Settings answers its tools, keeps its tokens in the key file only, and a new start connects without signing in', async () => {
  const server = await startOAuthMcpServer();
  open.push(server);
  const { t, events } = start();
  await signIn(t, events, server);
  expect(await whoami(t)).toBe('signed in as tester with scope read');

  // Kept by main in the key file (the plugin's config there), never in the database.
  const token = server.issued[0]!.token;
  await expect.poll(() => readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')).toContain(token);
  expect(JSON.parse(readFileSync(join(t.dataDir, 'secrets.json'), 'utf8'))).toHaveProperty(['plugin.mcp.oauth.remote']);
  expect(databaseBytes(t.dataDir)).not.toContain(token);
  expect(databaseBytes(t.dataDir)).not.toContain(server.issued[0]!.token.slice(3));
  // The first core stops (its folder stays until the test ends); the next one starts on the same data folder.
  const t2Folder = t.dataDir;
  await t.app.plugins.setState('mcp', false);

  const again = start(t2Folder);
  await again.t.app.plugins.setState('mcp', true);
  await untilMcpChange(again.t.api, again.events, row('remote', { state: 'connected', signIn: 'signedIn' }));
  expect(await whoami(again.t)).toMatch(/signed in as tester/);
  expect(server.registrations).toHaveLength(1);
  expect(server.issued.map((i) => i.grant)).toEqual(['authorization_code']);

  // Sign out: the key file forgets it, the row says Sign in.
  const out = await again.t.call<McpListing>('mcp.signOut', { name: 'remote' });
  expect(out.servers.find((s) => s.name === 'remote')).toMatchObject({ state: 'unauthorized', signIn: 'needed' });
  await expect.poll(() => readFileSync(join(t2Folder, 'secrets.json'), 'utf8')).not.toContain(token);
  expect(JSON.parse(readFileSync(join(t2Folder, 'secrets.json'), 'utf8'))).not.toHaveProperty(['plugin.mcp.oauth.remote']);
});

test('a server whose URL changes loses its sign-in', async () => {
  const server = await startOAuthMcpServer();
  const other = await startOAuthMcpServer();
  open.push(server, other);
  const { t, events } = start();
  await signIn(t, events, server);
  await expect.poll(() => readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')).toContain(server.issued[0]!.token);
  events.length = 0;
  await t.call('mcp.save', { name: 'remote', previousName: 'remote', server: { transport: 'http', url: other.url, headers: [] } });
  await untilMcpChange(t.api, events, row('remote', { signIn: 'needed' }));
  expect(readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')).not.toContain(server.issued[0]!.token);
  // The old server's token never went to the new one.
  expect(other.requests.filter((r) => r.authorization !== undefined)).toEqual([]);
});

test('mcp.signIn and mcp.signOut refuse what is not a server to sign in to, with a sentence', async () => {
  const { t } = start();
  for (const input of [{}, { name: '../x' }, { name: 'a'.repeat(65) }, { name: 'ok', extra: 1 }, { name: 42 }]) {
    expect((await t.refused('mcp.signIn', input)).code).toBe('invalid_input');
    expect((await t.refused('mcp.signOut', input)).code).toBe('invalid_input');
  }
  // The plugin is not running yet: said so.
  expect((await t.refused('mcp.signIn', { name: 'nope' })).message).toMatch(/MCP plugin is off/);
  // A stdio server does not sign in; an unknown one is named.
  await t.call('mcp.save', { name: 'local', server: { transport: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } });
  expect((await t.refused('mcp.signIn', { name: 'local' })).message).toMatch(/does not sign in with OAuth \(it runs on this machine\)/);
  expect((await t.refused('mcp.signIn', { name: 'nope' })).message).toMatch(/There is no MCP server 'nope'/);
  // A server switched off is not signed in to (nor connected by a sign-in).
  await t.call('mcp.save', { name: 'remote', server: { transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: [] } });
  await t.call('mcp.setEnabled', { name: 'remote', enabled: false });
  expect((await t.refused('mcp.signIn', { name: 'remote' })).message).toMatch(/'remote' is switched off; switch it on, then sign in/);
});

test('tokens the plugin refreshes are kept by main in the key file, replacing the old ones', async () => {
  // 30 s tokens are within the minute before expiry at once: each call refreshes first.
  const server = await startOAuthMcpServer({ tokenTtl: 30 });
  open.push(server);
  const { t, events } = start();
  await signIn(t, events, server);
  // The connect after the sign-in refreshed already; what is kept is the newest token.
  const held = server.issued.at(-1)!.token;
  await expect.poll(() => readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')).toContain(held);
  expect(await whoami(t)).toMatch(/signed in as tester/);
  const refreshed = server.issued.at(-1)!;
  expect(refreshed).toMatchObject({ grant: 'refresh_token' });
  expect(refreshed.token).not.toBe(held);
  await expect.poll(() => readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')).toContain(refreshed.token);
  expect(readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')).not.toContain(held);
  expect(databaseBytes(t.dataDir)).not.toContain(refreshed.token);
});
