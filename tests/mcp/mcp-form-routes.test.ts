// Settings → MCP servers → Add server and Edit over the API: a server added from the form connects; an
// edit reconnects that server only; secret values stay out of the database and never come back to the
// form; a hostile request is refused with a sentence and changes nothing; prompt commands are the core's,
// so two API routers over one core offer each once.
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type ApiRouter, createApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import type { McpListing, McpServerDetails } from '../../src/shared/api/index.ts';
import type { CommandView } from '../../src/shared/commands/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { startByteRecorder } from '../fixtures/byte-recorder.ts';
import { registered } from '../fixtures/registered.ts';
import { startAuthProxy } from './auth-proxy.ts';
import { EVERYTHING_ENTRY, startEverythingHttp } from './everything-server.ts';
import { callOk, untilMcpChange } from './mcp-api.ts';

let t: AppUnderTest;
let dir: string;
let workspace: string;
let app: App;
let api: ApiRouter;
let events: McpListing[];

beforeEach(() => {
  t = openApp({ prefix: 'amber-mcp-form-', before: (d) => mkdirSync(join(d, 'workspace')), app: (d) => ({ workspace: join(d, 'workspace') }) });
  ({ dir, app, api } = t);
  workspace = join(dir, 'workspace');
  events = [];
  api.subscribe((event, payload) => {
    if (event === 'mcp.changed') events.push(payload as McpListing);
  });
});

afterEach(() => t.close());

const ok = callOk;

const untilEvent = (predicate: (l: McpListing) => boolean) => untilMcpChange(api, events, predicate);

const connected = (name: string) => (l: McpListing) => l.servers.some((s) => s.name === name && s.state === 'connected');
const everything = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], ...extra });
const textOf = async (tool: string) => (await app.plugins.registries.tools.execute(tool, {})).content[0]!.text;
const untilTool = (name: string) => registered(() => app.plugins.registries.tools.get(name) !== undefined, app.plugins.registries.tools);
const setting = () => app.sessions.getSetting('plugin.mcp.config');

test('a stdio server added from the form connects with its tools; its secret variable stays out of the database and never comes back to the form', async () => {
  await ok(api, 'mcp.save', {
    name: 'everything',
    server: everything({
      env: [
        { name: 'AMBER_MCP_TOKEN', value: 'tok-secret-41', secret: true },
        { name: 'AMBER_MCP_MODE', value: 'plain-value' },
      ],
      timeoutSeconds: 30,
    }),
  });
  const listing = await untilEvent(connected('everything'));
  expect(listing.servers[0]!.tools).toBeGreaterThan(5);
  await untilTool('mcp__everything__get-env');
  const env = await textOf('mcp__everything__get-env');
  expect(env).toContain('tok-secret-41');
  expect(env).toContain('plain-value');
  expect(setting()).not.toContain('tok-secret-41');
  expect(JSON.parse(setting()!).servers.everything).toMatchObject({ timeoutMs: 30_000, secretEnv: ['AMBER_MCP_TOKEN'], env: { AMBER_MCP_TOKEN: '' } });
  const details = await ok<McpServerDetails>(api, 'mcp.server', { name: 'everything' });
  expect(JSON.stringify(details)).not.toContain('tok-secret-41');
  expect(details.server).toMatchObject({
    transport: 'stdio',
    cwd: '',
    timeoutSeconds: 30,
    env: [
      { name: 'AMBER_MCP_TOKEN', value: '', secret: true, keep: true },
      { name: 'AMBER_MCP_MODE', value: 'plain-value', secret: false, keep: false },
    ],
  });
});

test('saving an edit reconnects that server only, keeps a stored secret it was not given, and a removed server takes its secrets with it', async () => {
  const secretFile = join(dir, 'data', 'secrets.json');
  await ok(api, 'mcp.save', { name: 'edited', server: everything({ env: [{ name: 'AMBER_MCP_TOKEN', value: 'tok-kept-9', secret: true }] }) });
  await ok(api, 'mcp.save', { name: 'bystander', server: everything() });
  await untilEvent((l) => connected('edited')(l) && connected('bystander')(l));
  events.length = 0;
  const details = await ok<McpServerDetails>(api, 'mcp.server', { name: 'edited' });
  const form = details.server;
  if (form.transport !== 'stdio') throw new Error('expected a stdio server');
  await ok(api, 'mcp.save', {
    name: 'edited',
    previousName: 'edited',
    server: { ...form, env: [...form.env, { name: 'AMBER_MCP_ADDED', value: 'added-1' }], timeoutSeconds: 5 },
  });
  // The edited server goes through connecting again and comes back; the other one never leaves connected.
  let reconnecting = false;
  await untilEvent((l) => {
    reconnecting ||= l.servers.some((s) => s.name === 'edited' && s.state === 'connecting');
    return reconnecting && connected('edited')(l);
  });
  expect(events.flatMap((e) => e.servers.filter((s) => s.name === 'bystander').map((s) => s.state))).not.toContain('connecting');
  await untilTool('mcp__edited__get-env');
  const env = await textOf('mcp__edited__get-env');
  expect(env).toContain('tok-kept-9');
  expect(env).toContain('added-1');
  expect(JSON.parse(setting()!).servers.edited.timeoutMs).toBe(5000);

  expect(readFileSync(secretFile, 'utf8')).toContain('tok-kept-9');
  await ok(api, 'mcp.remove', { name: 'edited' });
  expect(readFileSync(secretFile, 'utf8')).not.toContain('tok-kept-9');
  expect(readFileSync(secretFile, 'utf8')).not.toContain('added-1');
});

test('a stdio server without a working folder starts in the default workspace and is offered it as its root; one with a folder starts there', async () => {
  const fixture = new URL('./fixtures/cwd-server.ts', import.meta.url).pathname;
  const own = join(dir, 'own-folder');
  mkdirSync(own);
  await ok(api, 'mcp.save', { name: 'shared', server: { transport: 'stdio', command: process.execPath, args: [fixture] } });
  await ok(api, 'mcp.save', { name: 'pinned', server: { transport: 'stdio', command: process.execPath, args: [fixture], cwd: own } });
  const listing = await untilEvent((l) => connected('shared')(l) && connected('pinned')(l));
  expect(listing.defaultFolder).toBe(workspace);
  await Promise.all([untilTool('mcp__shared__where'), untilTool('mcp__pinned__where')]);
  const shared = JSON.parse(await textOf('mcp__shared__where')) as { cwd: string; roots: string[] };
  expect(shared).toEqual({ cwd: realpathSync(workspace), roots: [pathToFileURL(workspace).href] });
  const pinned = JSON.parse(await textOf('mcp__pinned__where')) as { cwd: string; roots: string[] };
  expect(pinned).toEqual({ cwd: realpathSync(own), roots: [pathToFileURL(own).href] });
});

test('hostile save requests are refused with a sentence and change nothing', async () => {
  await ok(api, 'mcp.save', { name: 'kept', server: everything({ env: [{ name: 'AMBER_MCP_TOKEN', value: 'tok-hostile-3', secret: true }] }) });
  await untilEvent(connected('kept'));
  const before = setting();
  const secretsBefore = readFileSync(join(dir, 'data', 'secrets.json'), 'utf8');
  const hostile: [unknown, RegExp][] = [
    [{ name: 'a__b', server: everything() }, /server name/],
    [{ name: '../../etc', server: everything() }, /server name/],
    [{ name: 'x', server: everything({ command: '   ' }) }, /Enter the command/],
    [{ name: 'x', server: everything({ cwd: 'relative/folder' }) }, /must be a full path/],
    [{ name: 'x', server: everything({ cwd: join(dir, 'no-such-folder') }) }, /does not exist/],
    [{ name: 'x', server: everything({ env: [{ name: 'BAD=NAME', value: 'v' }] }) }, /environment variable name/],
    [
      {
        name: 'x',
        server: everything({
          env: [
            { name: 'A', value: '1' },
            { name: 'A', value: '2' },
          ],
        }),
      },
      /set twice/,
    ],
    [{ name: 'x', server: everything({ env: [{ name: 'A', value: 'nul\0byte' }] }) }, /NUL/],
    [{ name: 'x', server: everything({ timeoutSeconds: -5 }) }, /at least 1 second/],
    [{ name: 'x', server: everything({ timeoutSeconds: 1e9 }) }, /at most 3600/],
    [{ name: 'x', server: everything({ shell: true }) }, /not understood/],
    [{ name: 'x', server: { transport: 'http', url: 'file:///etc/passwd' } }, /starting with http/],
    [{ name: 'x', server: { transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'X-Evil', value: 'a\r\nInjected: yes' }] } }, /line breaks/],
    [{ name: 'x', server: { transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'Bad Header:', value: 'v' }] } }, /header name/],
    [{ name: 'x', server: { transport: 'smoke-signal' } }, /not understood/],
    // Keeping a value that was never stored, renaming onto a taken name, editing what is not there.
    [{ name: 'x', server: everything({ env: [{ name: 'AMBER_MCP_TOKEN', value: '', keep: true }] }) }, /no stored value/],
    [{ name: 'kept', server: everything() }, /exists already/],
    [{ name: 'x', previousName: 'nobody', server: everything() }, /no server 'nobody'/],
    // Names an object already answers to are no stored server.
    [{ name: 'x', previousName: 'constructor', server: everything() }, /no server 'constructor'/],
  ];
  for (const [request, message] of hostile) {
    const r = await api.call('mcp.save', request);
    expect(r, JSON.stringify(request)).toMatchObject({
      ok: false,
      error: { code: expect.stringMatching(/invalid_input|conflict|not_found/), message: expect.stringMatching(message) },
    });
    if (!r.ok) expect(r.error.message, JSON.stringify(request)).toMatch(/^[A-Z]/);
  }
  expect(await api.call('mcp.server', { name: 'constructor' })).toMatchObject({
    ok: false,
    error: { code: 'not_found', message: "There is no server 'constructor' added in Settings." },
  });
  expect(await api.call('mcp.server', { name: '__proto__' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(setting()).toBe(before);
  expect(readFileSync(join(dir, 'data', 'secrets.json'), 'utf8')).toBe(secretsBefore);

  // A kept secret cannot be unmarked into view: it stays secret, and its value never reaches the form.
  await ok(api, 'mcp.save', {
    name: 'kept',
    previousName: 'kept',
    server: everything({ env: [{ name: 'AMBER_MCP_TOKEN', value: '', secret: false, keep: true }] }),
  });
  const details = await ok<McpServerDetails>(api, 'mcp.server', { name: 'kept' });
  expect(JSON.stringify(details)).not.toContain('tok-hostile-3');
  expect(details.server).toMatchObject({ env: [{ name: 'AMBER_MCP_TOKEN', value: '', secret: true, keep: true }] });
});

test('two API routers over one core list each MCP prompt command once, and keep it when one of them closes', async () => {
  const second = createApiRouter(app, { log: () => {} });
  try {
    await ok(api, 'mcp.save', { name: 'everything', server: everything() });
    await untilEvent(connected('everything'));
    const promptCommands = async (router: ApiRouter) =>
      (await ok<CommandView[]>(router, 'commands.list')).map((c) => c.path.join(' ')).filter((p) => p.startsWith('mcp.everything.'));
    const listed = await promptCommands(second);
    expect(listed).toContain('mcp.everything.args-prompt');
    expect(listed.length).toBe(new Set(listed).size);
    expect(await promptCommands(api)).toEqual(listed);
    const third = createApiRouter(app, { log: () => {} });
    third.dispose();
    api.dispose();
    expect(await promptCommands(second)).toEqual(listed);
    const run = await ok<{ insert?: string }>(second, 'commands.run', { input: '/mcp.everything.args-prompt Oslo' });
    expect(JSON.stringify(run)).toContain("What's weather in Oslo?");
  } finally {
    second.dispose();
  }
});

test('an HTTP server that answers 401 shows needs authorization; adding an Authorization header in Edit connects it, the token kept secret', async () => {
  const upstream = await startEverythingHttp();
  const proxy = await startAuthProxy('tok-bearer-5', new URL(upstream.url).origin);
  try {
    await ok(api, 'mcp.save', { name: 'remote', server: { transport: 'http', url: proxy.url } });
    const locked = await untilEvent((l) => l.servers.some((s) => s.name === 'remote' && s.state === 'unauthorized'));
    expect(locked.servers.find((s) => s.name === 'remote')!.error).toMatch(/needs authorization: it answered 401 Unauthorized\. Add an Authorization header/);
    await ok(api, 'mcp.save', {
      name: 'remote',
      previousName: 'remote',
      server: { transport: 'http', url: proxy.url, headers: [{ name: 'Authorization', value: 'Bearer tok-bearer-5' }] },
    });
    await untilEvent(connected('remote'));
    await untilTool('mcp__remote__echo');
    expect((await app.plugins.registries.tools.execute('mcp__remote__echo', { message: 'through' })).content[0]!.text).toBe('Echo: through');
    expect(setting()).not.toContain('tok-bearer-5');
    const details = await ok<McpServerDetails>(api, 'mcp.server', { name: 'remote' });
    expect(JSON.stringify(details)).not.toContain('tok-bearer-5');
    expect(details.server).toMatchObject({ transport: 'http', headers: [{ name: 'Authorization', value: '', secret: true, keep: true }] });
  } finally {
    await proxy.close();
    await upstream.close();
  }
});

test('an HTTP server given another URL keeps none of its headers: the new URL never receives the old Authorization, from the form or an import', async () => {
  const upstream = await startEverythingHttp();
  const proxy = await startAuthProxy('tok-bearer-77', new URL(upstream.url).origin);
  const attacker = await startByteRecorder({ status: 404, body: '{"error":"nothing here"}' });
  try {
    await ok(api, 'mcp.save', {
      name: 'remote',
      server: { transport: 'http', url: proxy.url, headers: [{ name: 'Authorization', value: 'Bearer tok-bearer-77' }] },
    });
    await untilEvent(connected('remote'));
    // The form sends back what it showed: the stored header kept, the URL changed.
    const form = (await ok<McpServerDetails>(api, 'mcp.server', { name: 'remote' })).server;
    expect(form).toMatchObject({ headers: [{ name: 'Authorization', keep: true }] });
    await ok(api, 'mcp.save', { name: 'remote', previousName: 'remote', server: { ...form, url: `${attacker.url}/mcp` } });
    await attacker.untilRequests(1);
    expect(attacker.text()).toContain('POST /mcp');
    expect(attacker.text()).not.toContain('tok-bearer-77');
    expect(attacker.text().toLowerCase()).not.toContain('authorization');
    expect((await ok<McpServerDetails>(api, 'mcp.server', { name: 'remote' })).server).toMatchObject({ headers: [] });
    expect(readFileSync(join(dir, 'data', 'secrets.json'), 'utf8')).not.toContain('tok-bearer-77');

    // An import that names the same server with another URL and the header left empty keeps nothing either.
    await ok(api, 'mcp.save', {
      name: 'pasted',
      server: { transport: 'http', url: proxy.url, headers: [{ name: 'Authorization', value: 'Bearer tok-bearer-77' }] },
    });
    await untilEvent(connected('pasted'));
    const seen = attacker.requests;
    await ok(api, 'mcp.import', { json: JSON.stringify({ mcpServers: { pasted: { url: `${attacker.url}/pasted`, headers: { Authorization: '' } } } }) });
    await attacker.untilRequests(seen + 1);
    expect(attacker.text()).toContain('POST /pasted');
    expect(attacker.text()).not.toContain('tok-bearer-77');
    expect(attacker.text().toLowerCase()).not.toContain('authorization');
    expect(readFileSync(join(dir, 'data', 'secrets.json'), 'utf8')).not.toContain('tok-bearer-77');
  } finally {
    await attacker.close();
    await proxy.close();
    await upstream.close();
  }
});
