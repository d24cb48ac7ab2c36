// Server prompts as slash commands whose result goes into the message box, resources for the composer's
// attach menu (size-capped), and `/mcp connect|disconnect|restart` completing the live server names.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { MAX_MCP_RESOURCE_CHARS, type McpListing } from '../../src/shared/api/index.ts';
import type { CommandResult, CommandView, Completion } from '../../src/shared/commands/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';

let t: AppUnderTest;
let app: App;
let api: ApiRouter;

beforeEach(() => {
  t = openApp({ prefix: 'amber-mcp-prompts-', app: (dir) => ({ dataDir: dir }) });
  ({ app, api } = t);
});

afterEach(() => t.close());

const call = <T>(channel: string, input: unknown = {}) => t.call<T>(channel, input);
const run = async (input: string) => (await call<{ result: CommandResult }>('commands.run', { input })).result;
const commandWords = async () => (await call<CommandView[]>('commands.list')).map((c) => c.path.join(' '));

/** Resolves once `ready()` holds, checked again on every MCP event. */
function until(ready: () => Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    let checking = false;
    let again = false;
    const check = async () => {
      if (checking) return void (again = true);
      checking = true;
      try {
        do {
          again = false;
          if (await ready()) {
            sub.dispose();
            return resolve();
          }
        } while (again);
      } catch (e) {
        sub.dispose();
        reject(e as Error);
      } finally {
        checking = false;
      }
    };
    const sub = api.subscribe((event) => {
      if (event === 'mcp.changed' || event === 'commands.changed') void check();
    });
    void check();
  });
}

const servers = {
  everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
  big: { command: process.execPath, args: [new URL('./fixtures/big-resource-server.ts', import.meta.url).pathname] },
};
async function importServers(names: (keyof typeof servers)[] = ['everything']): Promise<void> {
  await call('mcp.import', { json: JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, servers[n]])) }) });
  await until(
    async () =>
      (await call<McpListing>('mcp.list')).servers.every((s) => s.state === 'connected') &&
      (await commandWords()).includes(`mcp.${names[0]}.${names[0] === 'big' ? 'review' : 'args-prompt'}`),
  );
}

test('each server prompt is a slash command whose result is text for the message box, its arguments in order or as name=value', async () => {
  await importServers(['everything', 'big']);
  expect(await commandWords()).toEqual(expect.arrayContaining(['mcp.everything.simple-prompt', 'mcp.everything.args-prompt', 'mcp.big.review']));
  expect(await run('/mcp.everything.args-prompt Oslo')).toEqual({ kind: 'insert', text: "What's weather in Oslo?" });
  expect(await run('/mcp.everything.args-prompt city=Bergen')).toEqual({ kind: 'insert', text: "What's weather in Bergen?" });
  expect(await run('/mcp.big.review notes.md error handling')).toEqual({ kind: 'insert', text: 'Review notes.md for error handling.' });
  const missing = await run('/mcp.big.review');
  expect(missing).toMatchObject({ kind: 'error', text: expect.stringMatching(/needs file/) });
});

test('a prompt argument keeps its spaces: quoted in the slash command, and as given through the plugin method', async () => {
  await importServers();
  expect(await run('/mcp.everything.args-prompt "San Francisco" California')).toEqual({ kind: 'insert', text: "What's weather in San Francisco, California?" });
  expect(await run('/mcp.everything.args-prompt state=\'New  York\' city="New York"')).toEqual({
    kind: 'insert',
    text: "What's weather in New York, New  York?",
  });
  // Main sends the arguments by name as data: nothing in between splits them on white space.
  expect(await app.mcp.call('prompt', { server: 'everything', prompt: 'args-prompt', arguments: { city: 'Rio de Janeiro', state: ' two  spaces ' } })).toEqual({
    text: "What's weather in Rio de Janeiro,  two  spaces ?",
  });
  await expect(app.mcp.call('prompt', { server: 'everything', prompt: 'args-prompt', arguments: {} })).rejects.toThrow(/needs city/);
  await expect(app.mcp.call('prompt', { server: 'no server', prompt: 'args-prompt' } as never)).rejects.toMatchObject({ code: 'invalid_input' });
});

test("a server's prompt commands go when it is switched off and come back when it is on", async () => {
  await importServers();
  await call('mcp.setEnabled', { name: 'everything', enabled: false });
  await until(async () => !(await commandWords()).some((w) => w.startsWith('mcp.everything.')));
  expect(await run('/mcp.everything.args-prompt Oslo')).toMatchObject({ kind: 'error' });
  await call('mcp.setEnabled', { name: 'everything', enabled: true });
  await until(async () => (await commandWords()).includes('mcp.everything.args-prompt'));
});

test('only the MCP plugin can add prompt commands: a report of prompts from another plugin is ignored', async () => {
  await importServers();
  const forged = {
    servers: [],
    problems: [],
    prompts: [{ server: 'evil', name: 'steal', description: 'forged', arguments: [] }],
    resources: [{ server: 'evil', uri: 'file:///etc/passwd', name: 'x' }],
  };
  app.plugins.events.emit('mcp.serversChanged', forged, 'other_plugin');
  app.plugins.events.emit('mcp.serversChanged', forged, null);
  expect(await commandWords()).not.toContain('mcp.evil.steal');
  expect((await call<{ resources: { server: string }[] }>('mcp.resources')).resources.some((r) => r.server === 'evil')).toBe(false);
  expect(await commandWords()).toContain('mcp.everything.args-prompt');
});

test('the attach menu lists the servers resources, and reading one gives its text for the message', async () => {
  await importServers();
  const { resources } = await call<{ resources: { server: string; uri: string }[] }>('mcp.resources');
  expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ server: 'everything', uri: expect.stringMatching(/^demo:\/\/resource\//) })]));
  const read = await call<{ text: string; truncated: boolean }>('mcp.readResource', { server: 'everything', uri: 'demo://resource/dynamic/text/1' });
  expect(read.truncated).toBe(false);
  expect(read.text).toMatch(/^\[resource <demo:\/\/resource\/dynamic\/text\/1>\]\n./);
});

test('a resource longer than the cap is cut, and resource reads refuse what is not a server name or a URI', async () => {
  await importServers(['big']);
  const read = await call<{ text: string; truncated: boolean }>('mcp.readResource', { server: 'big', uri: 'big://huge' });
  expect(read).toMatchObject({ truncated: true });
  expect(read.text.length).toBe(MAX_MCP_RESOURCE_CHARS);
  for (const input of [{ server: '../big', uri: 'big://huge' }, { server: 'big', uri: '' }, { server: 'big', uri: 'x'.repeat(5000) }, { server: 'big' }]) {
    expect((await api.call('mcp.readResource', input)).ok).toBe(false);
  }
  const unknown = await api.call('mcp.readResource', { server: 'nobody', uri: 'big://huge' });
  expect(unknown).toMatchObject({ ok: false, error: { message: expect.stringMatching(/no MCP server 'nobody'/) } });
});

test('/mcp connect, disconnect and restart complete the live server names', async () => {
  await importServers();
  const complete = async (input: string) => (await call<Completion[]>('commands.complete', { input })).map((c) => c.insert);
  expect(await complete('/mcp ')).toEqual(expect.arrayContaining(['/mcp connect ', '/mcp disconnect ', '/mcp list ', '/mcp restart ']));
  for (const verb of ['connect', 'disconnect', 'restart']) expect(await complete(`/mcp ${verb} ev`)).toEqual([`/mcp ${verb} everything `]);
  expect(await run('/mcp restart everything')).toMatchObject({ kind: 'ok', text: expect.stringMatching(/^everything \(stdio\): connected/) });
  await call('mcp.remove', { name: 'everything' });
  expect(await complete('/mcp connect ev')).toEqual([]);
});
