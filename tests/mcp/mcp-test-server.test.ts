// Settings' Test button, at the plugin: a server tried from its config is connected once, its tools listed,
// and disconnected; one that cannot start says why in words. Real stdio server processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { testServer } from '../../src/plugins/mcp/test-server.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-test-server-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a server tried from its config lists its tools with their read-only claims', async () => {
  const result = await testServer({ command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] }, dir);
  expect(result.ok).toBe(true);
  expect(result.message).toMatch(/^Connected: \d+ tools\.$/);
  expect(result.tools.map((t) => t.name)).toContain('echo');
  expect(result.tools.some((t) => t.readOnlyHint)).toBe(true);
}, 30_000);

test('a server that cannot start is not ok, and says why without the internal name it was tried under', async () => {
  const result = await testServer({ command: join(dir, 'no-such-server') }, dir);
  expect(result).toMatchObject({ ok: false, tools: [] });
  expect(result.message).toMatch(/^The server could not be connected: /);
  // A config that is not complete is refused before anything starts.
  expect(await testServer({ args: ['x'] }, dir)).toMatchObject({ ok: false, message: expect.stringMatching(/^The server cannot be tried yet: /) });
}, 30_000);

test('a server that signs in with OAuth says to save it and sign in; nothing is registered or kept', async () => {
  const { startOAuthMcpServer } = await import('../fixtures/oauth-mcp-server.ts');
  const server = await startOAuthMcpServer();
  try {
    const result = await testServer({ url: server.url }, dir);
    expect(result).toMatchObject({ ok: false, tools: [] });
    expect(result.message).toBe('The server needs you to sign in. Save it, then press Sign in on its row.');
    expect(server.requests.some((r) => r.path.startsWith('/as/register') || r.path.startsWith('/as/token'))).toBe(false);
  } finally {
    await server.close();
  }
});
