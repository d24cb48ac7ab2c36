// Settings → MCP servers over the API: importing an mcpServers document starts the MCP plugin and connects
// the server; switching it off disconnects it and removes its tools; a bad document is refused with the reason.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import type { McpListing } from '../../src/shared/api/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';
import { untilMcpChange } from './mcp-api.ts';

let t: AppUnderTest;
let app: App;
let api: ApiRouter;
let events: McpListing[];

beforeEach(() => {
  t = openApp({ prefix: 'amber-mcp-routes-', app: (dir) => ({ dataDir: dir }) });
  ({ app, api } = t);
  events = [];
  api.subscribe((event, payload) => {
    if (event === 'mcp.changed') events.push(payload as McpListing);
  });
});

afterEach(() => t.close());

const ok = <T = McpListing>(channel: string, input: unknown = {}) => t.call<T>(channel, input);

const untilEvent = (predicate: (l: McpListing) => boolean) => untilMcpChange(api, events, predicate);

const everythingJson = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } });
const connected = (l: McpListing) => l.servers.some((s) => s.name === 'everything' && s.state === 'connected');

test('importing an mcpServers document switches the MCP plugin on and connects the server, with its counts', async () => {
  expect(await ok('mcp.list')).toEqual({ pluginActive: false, servers: [], problems: [] });
  await ok('mcp.import', { json: everythingJson });
  const listing = await untilEvent(connected);
  expect(listing.pluginActive).toBe(true);
  const server = listing.servers.find((s) => s.name === 'everything')!;
  expect(server).toMatchObject({ source: 'settings', transport: 'stdio', error: null });
  expect(server.tools).toBeGreaterThan(5);
  expect(app.plugins.registries.tools.get('mcp__everything__echo')).toBeDefined();
});

test('switching a server off removes its tools; on brings them back; restart reconnects it; remove forgets it', async () => {
  await ok('mcp.import', { json: everythingJson });
  await untilEvent(connected);
  const off = await ok('mcp.setEnabled', { name: 'everything', enabled: false });
  expect(off.servers.find((s) => s.name === 'everything')?.state).toBe('off');
  await untilEvent((l) => l.servers.some((s) => s.state === 'off'));
  expect(app.plugins.registries.tools.specs().filter((spec) => spec.name.startsWith('mcp__'))).toEqual([]);
  events.length = 0;
  await ok('mcp.setEnabled', { name: 'everything', enabled: true });
  await untilEvent(connected);
  const restarted = await ok('mcp.restart', { name: 'everything' });
  expect(restarted.servers.find((s) => s.name === 'everything')?.state).toBe('connected');
  const removed = await ok('mcp.remove', { name: 'everything' });
  expect(removed.servers).toEqual([]);
});

test('a document that is not JSON, or names no usable server, is refused with the reason and changes nothing', async () => {
  const notJson = await api.call('mcp.import', { json: '{"mcpServers": ' });
  expect(notJson).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/^The text is not JSON/) } });
  const noCommand = await api.call('mcp.import', { json: JSON.stringify({ mcpServers: { bad: { args: ['x'] } } }) });
  expect(noCommand).toMatchObject({ ok: false, error: { message: 'The server \'bad\' needs a "command" (stdio) or a "url" (HTTP).' } });
  const badName = await api.call('mcp.import', { json: JSON.stringify({ mcpServers: { 'a b/../c': { command: 'x' } } }) });
  expect(badName).toMatchObject({ ok: false, error: { message: expect.stringMatching(/is not a server name Amber can use/) } });
  expect(app.sessions.getSetting('plugin.mcp.config')).toBeNull();
  expect(app.plugins.get('mcp').enabled).toBe(false);
});

test("a server's environment values reach the server but stay out of the database", async () => {
  const json = JSON.stringify({
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: { AMBER_MCP_TOKEN: 'tok-secret-77' } } },
  });
  await ok('mcp.import', { json });
  await untilEvent(connected);
  expect(app.sessions.getSetting('plugin.mcp.config')).not.toContain('tok-secret-77');
  expect(JSON.parse(app.sessions.getSetting('plugin.mcp.config')!).servers.everything.env).toEqual({ AMBER_MCP_TOKEN: '' });
  const out = await app.plugins.registries.tools.execute('mcp__everything__get-env', {});
  expect(out.content[0]!.text).toContain('tok-secret-77');
});

test('another plugin emitting on the MCP topic does not reach Settings', async () => {
  await ok('mcp.import', { json: everythingJson });
  await untilEvent(connected);
  events.length = 0;
  const fake = {
    servers: [{ name: 'spoofed', source: 'settings', transport: 'stdio', state: 'connected', error: null, tools: 99, resources: 0, prompts: 0 }],
    problems: [],
  };
  app.plugins.events.emit('mcp.serversChanged', fake, 'example');
  app.plugins.events.emit('mcp.serversChanged', fake, null);
  expect(events).toEqual([]);
  expect((await ok('mcp.list')).servers.map((s) => s.name)).toEqual(['everything']);
});
