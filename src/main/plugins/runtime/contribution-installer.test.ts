import { expect, test } from 'vitest';
import type { Contribution } from '../../../shared/plugins/index.ts';
import type { ProviderEvent, ProviderRequest } from '../../../shared/providers/index.ts';
import { MISSING_MESSAGES } from '../../../shared/sent-requests.ts';
import { INACTIVE_ALLOWANCE_HOLD_MS, installContribution, standingInactive, type StreamSinks } from './contribution-installer.ts';
import type { PluginConnection } from '../edge/plugin-connection.ts';
import { createPluginRegistries } from '../registries/plugin-registries.ts';

// A provider contribution over a stand-in for the plugin's connection: what main sends with each model call.

const model = { id: 'm', contextWindow: 1000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const timeouts = { callMs: 1000, toolMs: 1000, streamIdleMs: 5000 };
const done: ProviderEvent = { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop' } };

interface StreamCall {
  request: ProviderRequest;
  call: { config?: Record<string, unknown>; base?: { streamId: string; keep: number; systemPrompt?: true; tools?: true } };
}

/** A connection whose `$streamProvider` answers `done` at once, unless `refuse` says to throw instead. */
function fakeConnection(sinks: StreamSinks, refuse: (c: StreamCall) => Error | null = () => null) {
  const calls: StreamCall[] = [];
  let configReads = 0;
  const conn = {
    config: async () => {
      configReads++;
      return { accounts: [{ id: 'acct' }] };
    },
    call: async (method: string, args: unknown[]) => {
      if (method !== '$streamProvider') return undefined;
      const [streamId, , request, call] = args as [string, string, ProviderRequest, StreamCall['call']];
      const c = { request: JSON.parse(JSON.stringify(request)) as ProviderRequest, call: JSON.parse(JSON.stringify(call)) as StreamCall['call'] };
      calls.push(c);
      const refusal = refuse(c);
      if (refusal) throw refusal;
      sinks.get(streamId)?.([done][0]!);
      return undefined;
    },
  } as unknown as PluginConnection;
  return { conn, calls, configReads: () => configReads };
}

function install(conn: PluginConnection, sinks: StreamSinks) {
  const registries = createPluginRegistries();
  const decl = { kind: 'provider', id: 'acct', flavor: 'custom', presets: [], models: [model] } as unknown as Contribution;
  installContribution(registries, 'p', conn, decl, timeouts, sinks);
  return registries.providers.stream('acct')!;
}

async function drain(
  stream: ReturnType<typeof install>,
  messages: ProviderRequest['messages'],
  signal = new AbortController().signal,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of stream({ model, systemPrompt: 'sys', messages, tools: [] }, signal)) events.push(e);
  return events;
}

const user = (text: string) => ({ role: 'user' as const, content: text });

test('each model call carries the config, and only the messages the plugin process does not hold yet', async () => {
  const sinks: StreamSinks = new Map();
  const { conn, calls, configReads } = fakeConnection(sinks);
  const stream = install(conn, sinks);
  expect(await drain(stream, [user('one')])).toEqual([done]);
  expect(await drain(stream, [user('one'), user('two'), user('three')])).toEqual([done]);
  expect(calls[0]).toEqual({ request: expect.objectContaining({ messages: [user('one')] }), call: { config: { accounts: [{ id: 'acct' }] } } });
  expect(calls[1]!.request).toEqual(expect.objectContaining({ systemPrompt: '', tools: [], messages: [user('two'), user('three')] }));
  expect(calls[1]!.call.base).toEqual({ streamId: expect.any(String), keep: 1, systemPrompt: true, tools: true });
  expect(configReads()).toBe(2);
});

test('a plugin process that no longer holds the messages a call builds on gets the call again, whole', async () => {
  const sinks: StreamSinks = new Map();
  const { conn, calls } = fakeConnection(sinks, (c) => (c.call.base ? new Error(MISSING_MESSAGES) : null));
  const stream = install(conn, sinks);
  await drain(stream, [user('one')]);
  expect(await drain(stream, [user('one'), user('two')])).toEqual([done]);
  expect(calls.map((c) => c.request.messages.length)).toEqual([1, 1, 2]);
  expect(calls[2]!.call.base).toBeUndefined();
  expect(calls[2]!.request.systemPrompt).toBe('sys');
});

test('any other refusal of the call ends the stream with its sentence, sent once', async () => {
  const sinks: StreamSinks = new Map();
  const { conn, calls } = fakeConnection(sinks, () => new Error('The plugin broke.'));
  const events = await drain(install(conn, sinks), [user('one')]);
  expect(events).toEqual([
    expect.objectContaining({ type: 'error', kind: 'unknown', message: expect.objectContaining({ errorMessage: 'The plugin broke.' }) }),
  ]);
  expect(calls).toHaveLength(1);
});

test('a call stopped before it was sent is never sent', async () => {
  const sinks: StreamSinks = new Map();
  const { conn, calls } = fakeConnection(sinks);
  const controller = new AbortController();
  controller.abort();
  const events = await drain(install(conn, sinks), [user('one')], controller.signal);
  expect(events).toEqual([expect.objectContaining({ type: 'error', kind: 'aborted' })]);
  expect(calls).toHaveLength(0);
});

test("an allowance's answer that it limits nothing stands until the plugin is called for anything else or the hold is over; other answers are asked for each time", async () => {
  const conn = { activity: 1 } as { activity: number | undefined };
  let now = 0;
  let verdict: { allowed: boolean; inactive?: boolean; spent?: number } = { allowed: true, spent: 0, inactive: true };
  let asked = 0;
  const check = standingInactive(
    conn as unknown as PluginConnection,
    async () => (asked++, verdict),
    () => now,
  );
  const request = { providerId: 'p', modelId: 'm' };
  expect(await check(request)).toEqual({ allowed: true, spent: 0, inactive: true });
  now = INACTIVE_ALLOWANCE_HOLD_MS - 1;
  await check(request);
  expect(asked).toBe(1);
  // Another call into the plugin (a command, a panel action) may have set a limit.
  conn.activity = 2;
  await check(request);
  expect(asked).toBe(2);
  now += INACTIVE_ALLOWANCE_HOLD_MS;
  await check(request);
  expect(asked).toBe(3);
  // A plugin that is not running has no activity: it is asked every time.
  conn.activity = undefined;
  await check(request);
  await check(request);
  expect(asked).toBe(5);
  // An answer that limits something is never kept.
  conn.activity = 3;
  verdict = { allowed: true, spent: 10 };
  await check(request);
  await check(request);
  expect(asked).toBe(7);
});

test('each render of a prompt block carries the config as main reads it then', async () => {
  const sent: unknown[][] = [];
  let configReads = 0;
  const conn = {
    config: async () => ({ mode: `read ${++configReads}` }),
    call: async (method: string, args: unknown[]) => {
      sent.push([method, ...args]);
      return 'text';
    },
  } as unknown as PluginConnection;
  const registries = createPluginRegistries();
  const decl = { kind: 'promptBlock', id: 'b', position: 'tail', priority: 1 } as unknown as Contribution;
  installContribution(registries, 'p', conn, decl, timeouts, new Map());
  const block = registries.promptBlocks.get('b')!.value;
  const context = { sessionId: 's', workspace: '/w' };
  expect(await block.render(context)).toBe('text');
  await block.render(context);
  expect(sent).toEqual([
    ['$renderBlock', 'b', context, { config: { mode: 'read 1' } }],
    ['$renderBlock', 'b', context, { config: { mode: 'read 2' } }],
  ]);
});

test("a prompt block's cache 'run' reaches its registry entry; a block without one has none", () => {
  const conn = { config: async () => ({}), call: async () => 'text' } as unknown as PluginConnection;
  const registries = createPluginRegistries();
  installContribution(
    registries,
    'p',
    conn,
    { kind: 'promptBlock', id: 'kept', position: 'tail', priority: 0, cache: 'run' } as Contribution,
    timeouts,
    new Map(),
  );
  installContribution(registries, 'p', conn, { kind: 'promptBlock', id: 'each', position: 'tail', priority: 0 } as Contribution, timeouts, new Map());
  expect(registries.promptBlocks.get('kept')!.value.cache).toBe('run');
  expect(registries.promptBlocks.get('each')!.value.cache).toBeUndefined();
});
