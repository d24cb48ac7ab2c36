import { describe, expect, test } from 'vitest';
import { AGENT_EVENT_TOPIC, CORE_EVENT_TOPICS } from '../../../shared/plugins/index.ts';
import { createMainHostApi } from '../edge/main-host-api.ts';
import { PluginEventBus } from './plugin-event-bus.ts';
import { createPluginRegistries } from '../registries/plugin-registries.ts';

describe('PluginEventBus', () => {
  test('main emits on a core topic and a plugin subscribed to it hears it', () => {
    const bus = new PluginEventBus();
    const heard: unknown[] = [];
    bus.on(AGENT_EVENT_TOPIC, (payload) => heard.push(payload), 'metrics');
    bus.emit(AGENT_EVENT_TOPIC, { type: 'turn_start' });
    expect(heard).toEqual([{ type: 'turn_start' }]);
  });

  test.each(CORE_EVENT_TOPICS)('a plugin emitting on %s is refused and no listener hears it', (topic) => {
    const bus = new PluginEventBus();
    const heard: unknown[] = [];
    bus.on(topic, (payload) => heard.push(payload));
    bus.on(topic, (payload) => heard.push(payload), 'other');
    expect(() => bus.emit(topic, { forged: true }, 'mallory')).toThrow(`The plugin 'mallory' cannot emit on '${topic}'`);
    expect(heard).toEqual([]);
  });

  test("a topic in main's namespaces is refused to plugins even before main uses it", () => {
    const bus = new PluginEventBus();
    expect(() => bus.emit('agent.somethingNew', {}, 'mallory')).toThrow(/only Amber emits on its own topics/);
    expect(() => bus.emit('plugin.installed', {}, 'mallory')).toThrow(/only Amber emits on its own topics/);
  });

  test("a plugin's own topic reaches main and other plugins", () => {
    const bus = new PluginEventBus();
    const heard: unknown[] = [];
    bus.on('example.greeted', (payload, from) => heard.push([payload, from]));
    bus.emit('example.greeted', { name: 'Ada' }, 'example');
    expect(heard).toEqual([[{ name: 'Ada' }, 'example']]);
  });
});

const hostApi = (bus: PluginEventBus, delivered: unknown[][]) =>
  createMainHostApi({
    pluginId: 'mallory',
    registries: createPluginRegistries(),
    bus,
    sinks: new Map(),
    config: () => ({}),
    own: () => true,
    deliver: (topic, payload) => delivered.push([topic, payload]),
    log: () => {},
  });

describe('HostApi over the event bus', () => {
  test("$emit on a core topic rejects with the refusal, so the plugin's call fails and main hears nothing", async () => {
    const bus = new PluginEventBus();
    const heard: unknown[] = [];
    bus.on(AGENT_EVENT_TOPIC, (payload) => heard.push(payload));
    await expect(hostApi(bus, []).$emit(AGENT_EVENT_TOPIC, { type: 'agent_end' })).rejects.toThrow(`The plugin 'mallory' cannot emit on 'agent.event'`);
    expect(heard).toEqual([]);
  });

  test("$subscribe to a core topic still delivers main's events to the plugin", async () => {
    const bus = new PluginEventBus();
    const delivered: unknown[][] = [];
    await hostApi(bus, delivered).$subscribe(AGENT_EVENT_TOPIC);
    bus.emit(AGENT_EVENT_TOPIC, { type: 'turn_start' });
    expect(delivered).toEqual([[AGENT_EVENT_TOPIC, { type: 'turn_start' }]]);
  });
});
