// The mcp plugin in its own process: servers from its stored config and from mcp.json become Amber tools
// (`mcp__<server>__<tool>`, their readOnlyHint carried as a claim the policy checks against the user's
// trust), calls go main → plugin → server → back, and switching the plugin off (or killing it) removes the
// tools and ends the servers it started.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { findDescendants } from '../../src/main/plugins/index.ts';
import { MCP_METHODS } from '../../src/shared/mcp/index.ts';
import { isGone, untilGone } from '../plugins-bundled/bundled-runtime.ts';
import { startAuthProxy } from './auth-proxy.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';
import { type McpRuntime, startMcpRuntime } from './mcp-runtime.ts';

let rt: McpRuntime | null = null;
afterEach(async () => {
  await rt?.close();
  rt = null;
});

const everything = { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] };
const tool = (name: string) => rt!.service.registries.tools.get(name);

test('a stored server connects and its tools are offered as mcp__server__tool with readOnlyHint as their claim and no path parameters', async () => {
  rt = await startMcpRuntime({ everything });
  await rt.until(() => tool('mcp__everything__echo') !== undefined, 'the echo tool');
  const spec = tool('mcp__everything__echo')!.value.spec;
  expect(spec).toMatchObject({ readOnly: true, pathParams: [] });
  expect(tool('mcp__everything__toggle-simulated-logging')!.value.spec.readOnly).toBe(false);
  expect(spec.description).toMatch(/Echoes back the input string[\s\S]*MCP server 'everything'.*readOnlyHint=true/);
  expect(spec.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
  expect(tool('mcp__everything__get-sum')).toBeDefined();
  expect(tool('mcp__everything__read_resource')).toBeDefined();
  expect(rt.service.get('mcp').contributions.filter((c) => c.runtime).length).toBeGreaterThan(10);
  const out = await rt.service.registries.tools.execute('mcp__everything__echo', { message: 'through Amber' });
  expect(out).toMatchObject({ content: [{ type: 'text', text: 'Echo: through Amber' }], isError: false });
  const listing = await rt.service.registries.commands.run(['mcp'], ['list']);
  expect(listing.output).toMatch(/^everything \(stdio\): connected — \d+ tools, \d+ resources, \d+ prompts/);
});

test('the read_resource tool reads a resource, and /mcp prompt gets a prompt with its arguments', async () => {
  rt = await startMcpRuntime({ everything });
  await rt.until(() => tool('mcp__everything__read_resource') !== undefined, 'the read_resource tool');
  const out = await rt.service.registries.tools.execute('mcp__everything__read_resource', { uri: 'demo://resource/dynamic/text/1' });
  expect(out.isError).toBe(false);
  expect(out.content[0]!.text).toMatch(/^\[resource <demo:\/\/resource\/dynamic\/text\/1>\]/);
  expect(await rt.service.registries.commands.run(['mcp'], ['prompt', 'everything', 'args-prompt', 'city=Oslo'])).toEqual({
    output: "What's weather in Oslo?",
    isError: false,
  });
});

test('progress shows in the tool card, and Stop cancels the call', async () => {
  rt = await startMcpRuntime({ everything });
  await rt.until(() => tool('mcp__everything__trigger-long-running-operation') !== undefined, 'the long-running tool');
  const controller = new AbortController();
  const updates: string[] = [];
  const out = await rt.service.registries.tools.execute(
    'mcp__everything__trigger-long-running-operation',
    { duration: 30, steps: 60 },
    controller.signal,
    undefined,
    (text) => {
      updates.push(text);
      controller.abort();
    },
  );
  expect(updates[0]).toMatch(/^1\/60/);
  expect(out).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/aborted/) }] });
  // The server was told: the connection is still good for the next call.
  expect((await rt.service.registries.tools.execute('mcp__everything__echo', { message: 'next' })).content[0]!.text).toBe('Echo: next');
});

test("a server's tools/list_changed makes Amber's tool list follow", async () => {
  const changing = { command: process.execPath, args: [new URL('./fixtures/changing-server.ts', import.meta.url).pathname] };
  rt = await startMcpRuntime({ changing });
  await rt.until(() => tool('mcp__changing__grow') !== undefined, 'the grow tool');
  expect((await rt.service.registries.tools.execute('mcp__changing__grow', {})).content[0]!.text).toBe('added grown-1');
  await rt.until(() => tool('mcp__changing__grown-1') !== undefined, 'the grown tool to be offered');
  expect((await rt.service.registries.tools.execute('mcp__changing__grown-1', {})).content[0]!.text).toBe('grown 1');
  await rt.service.registries.tools.execute('mcp__changing__shrink', {});
  await rt.until(() => tool('mcp__changing__grown-1') === undefined, 'the grown tool to be gone');
});

test('a server listing 300 tools keeps its first 256 with a warning, and a server beside it keeps all of its own', async () => {
  const big = { command: process.execPath, args: [new URL('./fixtures/paged-server.ts', import.meta.url).pathname, '300'] };
  rt = await startMcpRuntime({ big });
  await rt.until(() => tool('mcp__big__tool-256') !== undefined, 'the first 256 tools of the big server');
  const names = () =>
    rt!.service.registries.tools
      .specs()
      .map((t) => t.name)
      .filter((n) => n.startsWith('mcp__big__'));
  expect(names()).toEqual(Array.from({ length: 256 }, (_, i) => `mcp__big__tool-${i + 1}`));
  expect((await rt.service.registries.tools.execute('mcp__big__tool-256', {})).content[0]!.text).toBe('ran tool-256');
  const warning = /The MCP server 'big' lists 300 tools; Amber offers at most 256 MCP tools in all, so only its first 256 are offered \(44 left out\)/;
  expect((await rt.service.registries.commands.run(['mcp'], ['list'])).output).toMatch(warning);
  expect((await rt.service.registries.methods.call('mcp', MCP_METHODS, 'report', {})).problems).toEqual([expect.stringMatching(warning)]);
  expect(rt.service.logs('mcp').some((l) => warning.test(l.message))).toBe(true);
  // A second server: it keeps every tool, and the big one gives way.
  rt.config['servers'] = { big, everything };
  await rt.service.registries.commands.run(['mcp'], ['reload']);
  await rt.until(() => tool('mcp__everything__echo') !== undefined, 'the tools of the second server');
  const everythingTools = rt.service.registries.tools.specs().filter((t) => t.name.startsWith('mcp__everything__')).length;
  expect(everythingTools).toBeGreaterThan(10);
  await rt.until(() => names().length === 256 - everythingTools, 'the big server to give way');
  expect(rt.service.registries.tools.specs().filter((t) => t.name.startsWith('mcp__')).length).toBe(256);
});

test('servers in mcp.json in the data folder are read at start', async () => {
  rt = await startMcpRuntime({}, (dataDir) => writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { fromfile: everything } })));
  await rt.until(() => tool('mcp__fromfile__echo') !== undefined, 'the tools of the server in mcp.json');
});

test('switching the plugin off removes every MCP tool and ends the servers it started', async () => {
  rt = await startMcpRuntime({ everything });
  await rt.until(() => tool('mcp__everything__echo') !== undefined, 'the echo tool');
  const servers = findDescendants([rt.service.get('mcp').pid!]);
  expect(servers.length).toBeGreaterThan(0);
  await rt.service.setState('mcp', false);
  expect(rt.service.registries.tools.size).toBe(0);
  for (const pid of servers) await untilGone(pid);
});

test('a plugin process killed outright takes its servers with it', async () => {
  rt = await startMcpRuntime({ everything });
  await rt.until(() => tool('mcp__everything__echo') !== undefined, 'the echo tool');
  const pluginPid = rt.service.get('mcp').pid!;
  const servers = findDescendants([pluginPid]);
  expect(servers.length).toBeGreaterThan(0);
  process.kill(pluginPid, 'SIGKILL');
  await rt.until(() => rt!.service.get('mcp').state === 'failed', 'the plugin to be failed');
  expect(rt.service.registries.tools.size).toBe(0);
  for (const pid of servers) await untilGone(pid);
  expect(servers.every(isGone)).toBe(true);
});

test('/mcp list says a server that answers 401 needs authorization and what to do, and /mcp connect tries it again', async () => {
  const proxy = await startAuthProxy('tok-list-4', null);
  try {
    rt = await startMcpRuntime({ locked: { url: proxy.url } });
    const list = async () => (await rt!.service.registries.commands.run(['mcp'], ['list'])).output;
    // The plugin connects in the background and tells each change of state on its topic: the test waits
    // for that report (or finds the state already there).
    const refusedSeen = new Promise<void>((resolve) => {
      const sub = rt!.service.events.on('mcp.serversChanged', (payload) => {
        if (!JSON.stringify(payload).includes('"state":"unauthorized"')) return;
        sub.dispose();
        resolve();
      });
      void list().then((output) => output.includes('needs authorization') && resolve());
    });
    await refusedSeen;
    const output = await list();
    expect(output).toMatch(
      /^locked \(http\): needs authorization — The MCP server 'locked' needs authorization: it answered 401 Unauthorized\. Add an Authorization header/,
    );
    const refused = proxy.refused;
    const again = await rt!.service.registries.commands.run(['mcp'], ['connect', 'locked']);
    expect(again).toMatchObject({ isError: true, output: expect.stringMatching(/needs authorization/) });
    expect(proxy.refused).toBeGreaterThan(refused);
  } finally {
    await proxy.close();
  }
});
