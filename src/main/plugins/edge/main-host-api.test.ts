import { expect, test } from 'vitest';
import { MAX_TOOL_STREAM_CHARS, MAX_TOOL_UPDATE_CHARS } from '../../../shared/plugins/index.ts';
import type { ToolUpdateSinks } from '../runtime/contribution-installer.ts';
import { createMainHostApi, type MainHostApiDeps } from './main-host-api.ts';
import { PluginEventBus } from '../runtime/plugin-event-bus.ts';

const sink = (got: string[]) => ({ deliver: (text: string) => void got.push(text), streamed: 0 });

function hostApiFor(pluginId: string, toolUpdates: ToolUpdateSinks) {
  const deps: MainHostApiDeps = {
    pluginId,
    registries: {} as MainHostApiDeps['registries'],
    bus: {} as MainHostApiDeps['bus'],
    sinks: new Map(),
    toolUpdates,
    config: () => ({}),
    own: () => true,
    deliver: () => {},
    log: () => {},
  };
  return createMainHostApi(deps);
}

test('$toolUpdate routes progress text to the running call it names', async () => {
  const got: string[] = [];
  const updates: ToolUpdateSinks = new Map([['t1', sink(got)]]);
  const api = hostApiFor('a', updates);
  await api.$toolUpdate('t1', 'line 1\n');
  await api.$toolUpdate('t1', 'line 2\n');
  expect(got).toEqual(['line 1\n', 'line 2\n']);
});

test('$toolUpdate refuses what is not text or is over the size cap, and drops ids of calls it does not run', async () => {
  const got: string[] = [];
  const mine: ToolUpdateSinks = new Map([['t1', sink(got)]]);
  const other: ToolUpdateSinks = new Map([['t2', sink(got)]]);
  const api = hostApiFor('a', mine);
  hostApiFor('b', other);
  await expect(api.$toolUpdate('t1', { text: 'x' } as unknown as string)).rejects.toThrow(/call id and a text/);
  await expect(api.$toolUpdate(7 as unknown as string, 'x')).rejects.toThrow(/call id and a text/);
  await expect(api.$toolUpdate('t1', 'x'.repeat(MAX_TOOL_UPDATE_CHARS + 1))).rejects.toThrow(/at most/);
  // Another plugin's running call is not reachable from this plugin's HostApi, nor is an ended one.
  await api.$toolUpdate('t2', 'hijack');
  await api.$toolUpdate('t9', 'late');
  expect(got).toEqual([]);
});

test('$toolUpdate passes on at most MAX_TOOL_STREAM_CHARS per call, however the plugin sends it', async () => {
  const got: string[] = [];
  const api = hostApiFor('a', new Map([['t1', sink(got)]]));
  const chunk = 'y'.repeat(MAX_TOOL_UPDATE_CHARS);
  for (let i = 0; i < MAX_TOOL_STREAM_CHARS / MAX_TOOL_UPDATE_CHARS + 5; i++) await api.$toolUpdate('t1', chunk);
  expect(got.join('').length).toBe(MAX_TOOL_STREAM_CHARS);
});

test('a subscription with a filter delivers only the event types it names; subscribing again changes the filter, and a bad filter is refused', async () => {
  const bus = new PluginEventBus();
  const got: string[] = [];
  const api = createMainHostApi({
    pluginId: 'a',
    registries: {} as MainHostApiDeps['registries'],
    bus,
    sinks: new Map(),
    config: () => ({}),
    own: () => true,
    deliver: (_topic, payload) => void got.push(String((payload as { type: string }).type)),
    log: () => {},
  });
  const fire = () => ['turn_start', 'message_start', 'message_end', 'tool_execution_end'].forEach((type) => bus.emit('agent.event', { type }));
  await api.$subscribe('agent.event', { types: ['message_end', 'turn_start'] });
  fire();
  expect(got).toEqual(['turn_start', 'message_end']);
  got.length = 0;
  await api.$subscribe('agent.event', null);
  fire();
  expect(got).toEqual(['turn_start', 'message_start', 'message_end', 'tool_execution_end']);
  got.length = 0;
  await expect(api.$subscribe('agent.event', { types: [7] } as never)).rejects.toThrow();
  await expect(api.$subscribe('agent.event', { types: ['x'], extra: true } as never)).rejects.toThrow();
  // A refused filter leaves the subscription as it was: one delivery per event, never two.
  fire();
  expect(got).toEqual(['turn_start', 'message_start', 'message_end', 'tool_execution_end']);
});
