import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HostApi, LogLevel } from '../../shared/plugin-wire/index.ts';
import type { ProviderEvent } from '../../shared/providers/index.ts';
import { MISSING_MESSAGES } from '../../shared/sent-requests.ts';
import { MAX_LOGS_IN_FLIGHT, PluginHost } from './plugin-host.ts';
import { START_HOLD_MS } from './provider-stream.ts';
import { TOOL_UPDATE_TOTAL_CHARS } from './tool-update-stream.ts';
import { UPDATE_INTERVAL_MS } from './update-throttle.ts';

// The plugin host in this process, against a recording HostApi: what main would receive, call by call.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-plugin-host-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Recorder extends HostApi {
  events: ProviderEvent[][];
  updates: { callId: string; text: string }[];
  logs: { level: LogLevel; message: string; dropped?: number }[];
  /** When set, log calls wait here until the test answers them. */
  heldLogs: (() => void)[] | null;
}

function recorder(): Recorder {
  const r: Recorder = {
    events: [],
    updates: [],
    logs: [],
    heldLogs: null,
    $getConfig: async () => ({ greeting: 'Hi' }),
    $emit: async () => {},
    $subscribe: async () => {},
    $unsubscribe: async () => {},
    $updateStatus: async () => {},
    $updatePanel: async () => {},
    $updateWallet: async () => {},
    $log: (level, message, dropped) => {
      r.logs.push({ level, message, ...(dropped ? { dropped } : {}) });
      const held = r.heldLogs;
      return held ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
    },
    $providerEvent: async (_streamId, events) => {
      r.events.push(events);
    },
    $toolUpdate: async (callId, text) => {
      r.updates.push({ callId, text });
    },
    $setTools: async () => {},
    $elicit: async () => ({ action: 'decline' }),
    $elicitCancel: async () => {},
  };
  return r;
}

async function load(source: string, host: HostApi = recorder()): Promise<PluginHost> {
  const entry = join(dir, `plugin-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(entry, source);
  const plugin = new PluginHost(host);
  const reply = await plugin.$handshake({ protocolVersion: 1, pluginId: 'p', entry, settings: {}, workspace: dir });
  expect(reply).toMatchObject({ ok: true });
  return plugin;
}

const model = { id: 'm', contextWindow: 1, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

test('declarations reach main as data, in order, with declines passed through', async () => {
  const plugin = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'tool', name: 't', description: '', parameters: {}, readOnly: true, execute: () => 'x' },
      { kind: 'tool', key: 'gated', declined: 'off' },
      { kind: 'command', path: ['a', 'b'], help: 'h', run: (args) => args.join('+') },
    ]; } };`);
  const init = await plugin.$initialize();
  expect(init).toEqual({
    initialized: true,
    capabilities: [
      { kind: 'tool', name: 't', description: '', parameters: {}, readOnly: true },
      { kind: 'tool', key: 'gated', declined: 'off' },
      { kind: 'command', path: ['a', 'b'], help: 'h' },
    ],
  });
  expect(await plugin.$executeTool('c1', 't', {})).toEqual({ content: [{ type: 'text', text: 'x' }], isError: false });
  expect(await plugin.$runCommand(['a', 'b'], ['1', '2'])).toEqual({ output: '1+2', isError: false });
  expect(await plugin.$executeTool('c2', 'missing', {})).toMatchObject({ isError: true });
});

test('a module that is not an SDK plugin, or speaks another protocol, answers ok:false', async () => {
  const entry = join(dir, 'not.mjs');
  writeFileSync(entry, 'export default { protocolVersion: 1 };');
  expect(await new PluginHost(recorder()).$handshake({ protocolVersion: 1, pluginId: 'p', entry, settings: {}, workspace: dir })).toMatchObject({ ok: false });
  expect(await new PluginHost(recorder()).$handshake({ protocolVersion: 2, pluginId: 'p', entry, settings: {}, workspace: dir })).toMatchObject({
    ok: false,
    reason: expect.stringMatching(/protocol 2/),
  });
});

test('a stream that ends without a result gets one error event, and every event is sent before the call answers', async () => {
  const host = recorder();
  const plugin = await load(
    `export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
      capabilities() { return [{ kind: 'provider', id: 'p', flavor: 'x', models: [],
        async *stream() { for (let i = 0; i < 600; i++) yield { type: 'text_delta', delta: String(i) }; } }]; } };`,
    host,
  );
  await plugin.$initialize();
  await plugin.$streamProvider('s1', 'p', { model, systemPrompt: '', messages: [], tools: [] });
  const all = host.events.flat();
  expect(all).toHaveLength(601);
  expect(all.slice(0, 3).map((e) => (e.type === 'text_delta' ? e.delta : e.type))).toEqual(['0', '1', '2']);
  expect(all.at(-1)).toMatchObject({ type: 'error', kind: 'bad_stream', message: { stopReason: 'error' } });
  // Batched: far fewer calls than events.
  expect(host.events.length).toBeLessThan(10);
});

test('a provider that throws ends its stream with one error event', async () => {
  const host = recorder();
  const plugin = await load(
    `export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
      capabilities() { return [{ kind: 'provider', id: 'p', flavor: 'x', models: [],
        async *stream() { yield { type: 'start' }; throw new Error('socket hang up'); } }]; } };`,
    host,
  );
  await plugin.$initialize();
  await plugin.$streamProvider('s1', 'p', { model, systemPrompt: '', messages: [], tools: [] });
  expect(host.events.flat()).toEqual([
    { type: 'start' },
    expect.objectContaining({ type: 'error', message: expect.objectContaining({ errorMessage: "The provider 'p' failed: socket hang up" }) }),
  ]);
});

test("a stream's start goes to main with the next event, not alone; one with nothing after it goes alone once START_HOLD_MS is over", async () => {
  const host = recorder();
  const plugin = await load(
    `export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
      capabilities() { return [
        { kind: 'provider', id: 'soon', flavor: 'x', models: [],
          async *stream() { yield { type: 'start' }; for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r)); yield { type: 'text_delta', delta: 'a' }; } },
        { kind: 'provider', id: 'late', flavor: 'x', models: [],
          async *stream() { yield { type: 'start' }; await new Promise((r) => setTimeout(r, ${START_HOLD_MS * 5})); yield { type: 'text_delta', delta: 'b' }; } },
      ]; } };`,
    host,
  );
  await plugin.$initialize();
  await plugin.$streamProvider('s1', 'soon', { model, systemPrompt: '', messages: [], tools: [] });
  expect(host.events.map((batch) => batch.map((e) => e.type))).toEqual([['start', 'text_delta', 'error']]);
  host.events.length = 0;
  await plugin.$streamProvider('s2', 'late', { model, systemPrompt: '', messages: [], tools: [] });
  expect(host.events.map((batch) => batch.map((e) => e.type))).toEqual([['start'], ['text_delta', 'error']]);
});

test('log lines beyond the in-flight bound are dropped and the count rides on the next line', async () => {
  const host = recorder();
  host.heldLogs = [];
  const plugin = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() { return []; } };`, host);
  for (let i = 0; i < MAX_LOGS_IN_FLIGHT + 10; i++) plugin.log('info', `line ${i}`);
  expect(host.logs).toHaveLength(MAX_LOGS_IN_FLIGHT);
  const held = host.heldLogs;
  host.heldLogs = null;
  for (const answer of held) answer();
  await Promise.resolve();
  await new Promise((r) => setImmediate(r));
  plugin.log('warn', 'after');
  expect(host.logs.at(-1)).toEqual({ level: 'warn', message: 'after', dropped: 10 });
});

test('initialize returning false or throwing is reported, never thrown', async () => {
  const no = await load(`export default { protocolVersion: 1, initialize() { return false; }, shutdown() {}, capabilities() { return []; } };`);
  expect(await no.$initialize()).toEqual({ initialized: false, reason: 'The plugin declined to start: initialize() returned false.' });
  const boom = await load(`export default { protocolVersion: 1, initialize() { throw new Error('no key'); }, shutdown() {}, capabilities() { return []; } };`);
  expect(await boom.$initialize()).toEqual({ initialized: false, reason: 'initialize() threw: no key' });
});

test("a tool's progress updates are batched, in order, all sent before its result, and capped per call", async () => {
  const host = recorder();
  const plugin = await load(
    `export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
      capabilities() { return [{ kind: 'tool', name: 'chatty', description: '', parameters: {}, readOnly: true,
        execute(args, options) {
          for (let i = 0; i < Number(args.n); i++) options.update(args.big ? 'x'.repeat(64 * 1024) : i + ',');
          options.update('');
          return 'done';
        } }]; } };`,
    host,
  );
  await plugin.$initialize();
  expect(await plugin.$executeTool('c1', 'chatty', { n: 500 })).toMatchObject({ isError: false });
  expect(host.updates.length).toBeLessThan(5);
  expect(host.updates.every((u) => u.callId === 'c1')).toBe(true);
  expect(host.updates.map((u) => u.text).join('')).toBe(Array.from({ length: 500 }, (_, i) => `${i},`).join(''));

  host.updates.length = 0;
  await plugin.$executeTool('c2', 'chatty', { n: 40, big: true });
  const streamed = host.updates.map((u) => u.text).join('');
  expect(streamed.length).toBeLessThan(TOOL_UPDATE_TOTAL_CHARS + 200);
  expect(streamed).toMatch(/Further output is not shown live/);
  expect(Math.max(...host.updates.map((u) => u.text.length))).toBeLessThanOrEqual(64 * 1024);
});

test("a hook's declaration reaches main as data; $runHook answers its result, null for no change, and rejects what it threw", async () => {
  const plugin = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'hook', point: 'input', run: (e) => (e.text === 'same' ? undefined : { text: e.text + '!' }) },
      { kind: 'hook', point: 'tool_call', run: () => { throw new Error('guard broke'); } },
    ]; } };`);
  expect(await plugin.$initialize()).toEqual({
    initialized: true,
    capabilities: [
      { kind: 'hook', point: 'input' },
      { kind: 'hook', point: 'tool_call' },
    ],
  });
  expect(await plugin.$runHook('input', { sessionId: 's', text: 'hi' })).toEqual({ text: 'hi!' });
  expect(await plugin.$runHook('input', { sessionId: 's', text: 'same' })).toBeNull();
  await expect(plugin.$runHook('tool_call', {})).rejects.toThrow('guard broke');
  await expect(plugin.$runHook('context', {})).rejects.toThrow(/no hook at 'context'/);
});

test("a method's declaration reaches main as data; $callMethod answers what it returned (null for nothing) and rejects what it threw", async () => {
  const plugin = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'method', name: 'echo', call: (args) => ({ got: args }) },
      { kind: 'method', name: 'nothing', call: () => undefined },
      { kind: 'method', name: 'broken', call: () => { throw new Error('no server'); } },
    ]; } };`);
  expect(await plugin.$initialize()).toEqual({
    initialized: true,
    capabilities: [
      { kind: 'method', name: 'echo' },
      { kind: 'method', name: 'nothing' },
      { kind: 'method', name: 'broken' },
    ],
  });
  expect(await plugin.$callMethod('echo', { city: 'New York' })).toEqual({ got: { city: 'New York' } });
  expect(await plugin.$callMethod('nothing', {})).toBeNull();
  await expect(plugin.$callMethod('broken', {})).rejects.toThrow('no server');
  await expect(plugin.$callMethod('missing', {})).rejects.toThrow(/no method 'missing'/);
});

test("$probe runs the plugin's probe with the request and a signal that aborts at the deadline", async () => {
  const plugin = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() { return []; },
    probe(request, signal) {
      if (request.flavor === 'wait') return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, models: [], message: 'gave up: ' + signal.reason.name })));
      return { ok: true, models: [request.flavor, request.baseUrl, String(request.apiKey)], message: 'listed' };
    } };`);
  expect(await plugin.$probe({ flavor: 'custom', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' }, 1000)).toEqual({
    ok: true,
    models: ['custom', 'http://127.0.0.1:1/v1', 'k'],
    message: 'listed',
  });
  expect(await plugin.$probe({ flavor: 'wait', baseUrl: 'http://127.0.0.1:1/v1' }, 20)).toEqual({ ok: false, models: [], message: 'gave up: TimeoutError' });
});

test('$probe of a probe that throws answers with a sentence without the key; a plugin without probe refuses', async () => {
  const throwing = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() { return []; },
    probe(request) { throw new Error('bad key ' + request.apiKey); } };`);
  expect(await throwing.$probe({ flavor: 'custom', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-secret-1' }, 1000)).toEqual({
    ok: false,
    models: [],
    message: 'The connection test failed: bad key [key removed]',
  });
  const without = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() { return []; } };`);
  await expect(without.$probe({ flavor: 'custom', baseUrl: 'http://127.0.0.1:1/v1' }, 1000)).rejects.toThrow(
    'This plugin cannot test a connection: it has no probe().',
  );
});

test('shutdown aborts a probe still running', async () => {
  const plugin = await load(`export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() { return []; },
    probe(_request, signal) { return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, models: [], message: 'stopped' }))); } };`);
  const pending = plugin.$probe({ flavor: 'custom', baseUrl: 'http://127.0.0.1:1/v1' }, 60_000);
  await plugin.$shutdown();
  expect(await pending).toEqual({ ok: false, models: [], message: 'stopped' });
});

test('a provider stream and an allowance check read the config main sent with the call, without asking main; elsewhere config is asked for', async () => {
  const r = recorder();
  let asked = 0;
  r.$getConfig = async () => {
    asked++;
    return { key: 'asked' };
  };
  const plugin = await load(
    `let ctx; export default { protocolVersion: 1, initialize(c) { ctx = c; return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'provider', id: 'acct', flavor: 'custom', models: [${JSON.stringify(model)}], async *stream(request) {
        const key = await ctx.config('key');
        await new Promise((r) => setTimeout(r, 1));
        const all = await ctx.configAll();
        yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: key + '/' + all.key }], stopReason: 'stop' } };
      } },
      { kind: 'allowance', id: 'cap', scope: '*', limit: 1, unit: 'x', spent: 0, async check() { return { allowed: (await ctx.config('key')) === 'sent' }; } },
      { kind: 'command', path: ['key'], help: 'h', run: async () => String(await ctx.config('key')) },
    ]; } };`,
    r,
  );
  await plugin.$initialize();
  const request = { model, systemPrompt: '', messages: [], tools: [] };
  await plugin.$streamProvider('s1', 'acct', request, { config: { key: 'sent' } });
  expect(r.events.flat().at(-1)).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'sent/sent' }] } });
  expect(await plugin.$checkAllowance('cap', { providerId: 'acct', modelId: 'm' }, { config: { key: 'sent' } })).toEqual({ allowed: true });
  expect(asked).toBe(0);
  // Without a config sent (an older main), and outside those calls, the plugin asks main as before.
  expect(await plugin.$checkAllowance('cap', { providerId: 'acct', modelId: 'm' })).toEqual({ allowed: false });
  expect(await plugin.$runCommand(['key'], [])).toEqual({ output: 'asked', isError: false });
  // Something that is not a config object is not taken for one.
  expect(await plugin.$checkAllowance('cap', { providerId: 'acct', modelId: 'm' }, { config: ['sent'] as never })).toEqual({ allowed: false });
  expect(asked).toBe(3);
});

test('a prompt block renders with the config main sent with the call, without asking main; sent none, it asks as before', async () => {
  const r = recorder();
  let asked = 0;
  r.$getConfig = async () => {
    asked++;
    return { mode: 'asked' };
  };
  const plugin = await load(
    `let ctx; export default { protocolVersion: 1, initialize(c) { ctx = c; return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'promptBlock', id: 'b', position: 'tail', priority: 1, render: async () => {
        const mode = await ctx.config('mode');
        await new Promise((r) => setTimeout(r, 1));
        return mode + '/' + (await ctx.configAll()).mode;
      } },
    ]; } };`,
    r,
  );
  await plugin.$initialize();
  const context = { sessionId: 's', workspace: dir };
  expect(await plugin.$renderBlock('b', context, { config: { mode: 'sent' } })).toBe('sent/sent');
  expect(asked).toBe(0);
  expect(await plugin.$renderBlock('b', context)).toBe('asked/asked');
  // Something that is not a config object is not taken for one.
  expect(await plugin.$renderBlock('b', context, { config: 'sent' as never })).toBe('asked/asked');
  expect(asked).toBe(4);
});

test('a provider request is rebuilt from the earlier one it builds on, and one that builds on a request this process does not hold is refused before the provider runs', async () => {
  const r = recorder();
  const plugin = await load(
    `let runs = 0; export default { protocolVersion: 1, initialize() { return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'provider', id: 'acct', flavor: 'custom', models: [${JSON.stringify(model)}], async *stream(request) {
        runs++;
        yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: runs + ':' + request.systemPrompt + ':' + request.tools.length + ':' + request.messages.map((m) => m.content).join(',') }], stopReason: 'stop' } };
      } },
    ]; } };`,
    r,
  );
  await plugin.$initialize();
  const request = (messages: unknown[], systemPrompt = '', tools: unknown[] = []) => ({ model, systemPrompt, messages, tools }) as never;
  const lastText = () => (r.events.flat().at(-1) as { message: { content: { text: string }[] } }).message.content[0]!.text;
  await plugin.$streamProvider('s1', 'acct', request([{ role: 'user', content: 'a' }], 'sys', [{ name: 't' }]));
  await plugin.$streamProvider('s2', 'acct', request([{ role: 'user', content: 'b' }]), { base: { streamId: 's1', keep: 1, systemPrompt: true, tools: true } });
  expect(lastText()).toBe('2:sys:1:a,b');
  const sent = r.events.length;
  await expect(plugin.$streamProvider('s3', 'acct', request([]), { base: { streamId: 'gone', keep: 1 } })).rejects.toThrow(MISSING_MESSAGES);
  await expect(plugin.$streamProvider('s4', 'acct', request([]), { base: { streamId: 's2', keep: 'all' } as never })).rejects.toThrow(MISSING_MESSAGES);
  expect(r.events.length).toBe(sent);
});

test('a status updated at every event reaches main at once, then only its latest text once per interval', async () => {
  const r = recorder();
  const sent: string[] = [];
  let next: (() => void) | null = null;
  r.$updateStatus = async (segment) => {
    sent.push(segment.text);
    next?.();
  };
  const plugin = await load(
    `let ctx; export default { protocolVersion: 1, initialize(c) { ctx = c; return true; }, shutdown() {},
    capabilities() { return [{ kind: 'command', path: ['burst'], help: 'h', run: () => {
      for (let i = 0; i < 50; i++) ctx.updateStatus({ id: 'seg', text: 'n' + i, priority: 1 });
      return 'ok';
    } }]; } };`,
    r,
  );
  await plugin.$initialize();
  const second = new Promise<void>((resolve) => (next = () => sent.length === 2 && resolve()));
  const t0 = Date.now();
  await plugin.$runCommand(['burst'], []);
  expect(sent).toEqual(['n0']);
  await second;
  expect(sent).toEqual(['n0', 'n49']);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(UPDATE_INTERVAL_MS - 5);
});

test('listeners that name event types make main send only those; a listener without types makes it send all again', async () => {
  const r = recorder();
  const subscriptions: unknown[] = [];
  r.$subscribe = async (topic, filter) => void subscriptions.push([topic, filter ?? null]);
  const plugin = await load(
    `let ctx; const seen = []; let off; export default { protocolVersion: 1, initialize(c) { ctx = c; return true; }, shutdown() {},
    capabilities() { return [
      { kind: 'command', path: ['on'], help: 'h', run: (args) => {
        const d = ctx.events.on('agent.event', (p) => seen.push(args[0] + ':' + p.type), args[0] === 'all' ? undefined : { types: args });
        if (args[0] === 'all') off = d;
        return 'ok';
      } },
      { kind: 'command', path: ['off'], help: 'h', run: () => (off.dispose(), 'ok') },
      { kind: 'command', path: ['seen'], help: 'h', run: () => seen.splice(0).join(',') },
    ]; } };`,
    r,
  );
  await plugin.$initialize();
  await plugin.$runCommand(['on'], ['message_end']);
  await plugin.$runCommand(['on'], ['turn_start', 'message_end']);
  await plugin.$runCommand(['on'], ['all']);
  await plugin.$runCommand(['off'], []);
  expect(subscriptions).toEqual([
    ['agent.event', { types: ['message_end'] }],
    ['agent.event', { types: ['message_end', 'turn_start'] }],
    ['agent.event', null],
    ['agent.event', { types: ['message_end', 'turn_start'] }],
  ]);
  // Each listener hears only what it named, whatever main sends.
  await plugin.$event('agent.event', { type: 'turn_start' });
  await plugin.$event('agent.event', { type: 'tool_execution_end' });
  expect((await plugin.$runCommand(['seen'], [])).output).toBe('turn_start:turn_start');
});
