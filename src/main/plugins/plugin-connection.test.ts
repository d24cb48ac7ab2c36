import { expose, wrap, type Endpoint } from 'comlink';
import { expect, test } from 'vitest';
import { createChannelRouter } from '../../shared/plugins/channel-router.ts';
import type { HostApi, PluginApi } from '../../shared/plugins/plugin-api.ts';
import { CHANNEL_HOST, CHANNEL_PLUGIN, CHANNEL_READY } from '../../shared/plugins/protocol.ts';
import { PluginConnection } from './plugin-connection.ts';
import type { PluginExit, PluginProcess } from './plugin-launcher.ts';

// PluginConnection against an in-memory process: a peer that speaks the same channels over a fake pipe,
// whose death, congestion and silence the test controls.

interface FakePeer {
  process: PluginProcess & { congested: boolean };
  /** Calls main's HostApi as the plugin would. */
  host: HostApi;
  exit(e: PluginExit): void;
}

function fakePeer(plugin: Partial<PluginApi>): FakePeer {
  const toMain: ((m: unknown) => void)[] = [];
  const exits: ((e: PluginExit) => void)[] = [];
  const peer = createChannelRouter((envelope) => queueMicrotask(() => toMain.forEach((l) => l(envelope))));
  let open = true;
  const proc = {
    pid: 4242,
    congested: false,
    get connected() {
      return open;
    },
    send(message: unknown) {
      if (!open) return false;
      queueMicrotask(() => peer.dispatch(message));
      return true;
    },
    onMessage: (l: (m: unknown) => void) => void toMain.push(l),
    onExit: (l: (e: PluginExit) => void) => void exits.push(l),
    onOutput: () => {},
    disconnect: () => void (open = false),
    kill: () => {},
  };
  expose(plugin, peer.endpoint(CHANNEL_PLUGIN) as unknown as Endpoint);
  const host = wrap<HostApi>(peer.endpoint(CHANNEL_HOST) as unknown as Endpoint) as unknown as HostApi;
  queueMicrotask(() => toMain.forEach((l) => l({ ch: CHANNEL_READY })));
  return {
    process: proc,
    host,
    exit(e) {
      open = false;
      exits.forEach((l) => l(e));
    },
  };
}

const quietHost = (log: string[] = []): HostApi => ({
  $getConfig: async () => ({}),
  $emit: async (topic) => void log.push(topic),
  $subscribe: async () => {},
  $unsubscribe: async () => {},
  $updateStatus: async () => {},
  $updatePanel: async () => {},
  $updateWallet: async () => {},
  $log: async () => {},
  $providerEvent: async () => {},
  $toolUpdate: async () => {},
});

const never = () => new Promise<never>(() => {});

test('a dead peer rejects every pending call at once, and later calls at once too', async () => {
  const peer = fakePeer({ $tick: never, $runCommand: never });
  const conn = new PluginConnection('p', peer.process, quietHost());
  await conn.ready(1000);
  const a = conn.call('$tick', [], 0);
  const b = conn.call('$runCommand', [['x'], []], 0);
  await Promise.resolve();
  expect(conn.pendingCount).toBe(2);
  peer.exit({ code: null, signal: 'SIGKILL' });
  await expect(a).rejects.toThrow("The plugin 'p' stopped: its process was killed (SIGKILL).");
  await expect(b).rejects.toThrow('killed (SIGKILL)');
  await expect(conn.call('$tick', [], 0)).rejects.toThrow('killed (SIGKILL)');
  expect(conn.alive).toBe(false);
});

test('a call that is not answered in time fails with the method named, and the connection lives on', async () => {
  const peer = fakePeer({ $tick: never, $renderBlock: async () => 'ok' });
  const conn = new PluginConnection('p', peer.process, quietHost());
  await conn.ready(1000);
  await expect(conn.call('$tick', [], 30)).rejects.toThrow("The plugin 'p' did not answer $tick within 30 ms.");
  expect(await conn.call('$renderBlock', ['b', { sessionId: null, workspace: '/' }], 1000)).toBe('ok');
  expect(conn.pendingCount).toBe(0);
});

test('host calls beyond the rate are dropped and counted; a congested pipe admits none', async () => {
  const peer = fakePeer({});
  const topics: string[] = [];
  let now = 0;
  const conn = new PluginConnection('p', peer.process, quietHost(topics), { inboundPerSecond: 5, clock: () => now });
  await conn.ready(1000);
  for (let i = 0; i < 8; i++) void peer.host.$emit(`t${i}`, null);
  await new Promise((r) => setImmediate(r));
  expect(topics).toEqual(['t0', 't1', 't2', 't3', 't4']);
  expect(conn.dropped).toBe(3);

  now += 1000;
  peer.process.congested = true;
  void peer.host.$emit('while-congested', null);
  await new Promise((r) => setImmediate(r));
  expect(topics).not.toContain('while-congested');
  expect(conn.dropped).toBe(4);
});
