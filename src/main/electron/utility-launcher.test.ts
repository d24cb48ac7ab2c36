import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { UtilityProcess } from 'electron';
import { expect, test } from 'vitest';
import { createSharedHostLauncher } from '../plugins/index.ts';
import { PluginConnection } from '../plugins/index.ts';
import type { HostApi } from '../../shared/plugins/index.ts';
import { createUtilityLauncher } from './utility-launcher.ts';

// The desktop launcher against a stand-in for Electron's utilityProcess (Electron cannot run here): what it
// starts the process with, and how a structured clone from the plugin meets the same gate and caps.

class FakeUtility extends EventEmitter {
  // No pid: nothing real is ever signalled from this test.
  pid: number | undefined = undefined;
  stdout = new PassThrough();
  stderr = new PassThrough();
  posted: unknown[] = [];
  killed = false;
  postMessage(m: unknown) {
    this.posted.push(m);
  }
  kill() {
    this.killed = true;
    queueMicrotask(() => this.emit('exit', 0));
    return true;
  }
}

function launch(env: NodeJS.ProcessEnv = {}, maxFrameBytes?: number) {
  const forks: { args: string[]; options: { env: NodeJS.ProcessEnv; execArgv: string[] } }[] = [];
  const child = new FakeUtility();
  const launcher = createUtilityLauncher(
    {
      fork: ((_entry: string, args: string[], options: { env: NodeJS.ProcessEnv; execArgv: string[] }) => {
        forks.push({ args, options });
        return child as unknown as UtilityProcess;
      }) as never,
    },
    { env, maxHeapMb: 128, ...(maxFrameBytes ? { maxFrameBytes } : {}) },
  );
  return { proc: launcher({ pluginId: 'u' }), child, forks };
}

const host: HostApi = {
  $getConfig: async () => ({}),
  $emit: async () => {},
  $subscribe: async () => {},
  $unsubscribe: async () => {},
  $updateStatus: async () => {},
  $updatePanel: async () => {},
  $toolUpdate: async () => {},
  $setTools: async () => {},
  $elicit: async () => ({ action: 'decline' }),
  $elicitCancel: async () => {},
  $updateWallet: async () => {},
  $log: async () => {},
  $providerEvent: async () => {},
};

test('a utility process starts with the allow-listed environment and a heap cap', () => {
  const { forks } = launch({ PATH: '/bin', OPENAI_API_KEY: 'sk-test', NODE_OPTIONS: '--inspect', LC_ALL: 'C' });
  expect(forks[0]!.options.execArgv).toContain('--max-old-space-size=128');
  const env = { ...forks[0]!.options.env };
  expect(env).toMatchObject({ PATH: '/bin', LC_ALL: 'C', AMBER_PLUGIN_ID: 'u' });
  expect(env.OPENAI_API_KEY).toBeUndefined();
  expect(env.NODE_OPTIONS).toBeUndefined();
});

test('a structured clone that is not plain data, or walks __proto__, is dropped by the connection; an oversized one is refused', async () => {
  const { proc, child } = launch();
  const conn = new PluginConnection('u', proc, host, { maxMessageBytes: 1024, log: () => {} });
  child.emit('message', { ch: 'ready' });
  await conn.ready(100);
  child.emit('message', {
    ch: 'host',
    m: {
      id: '1',
      type: 'APPLY',
      path: ['$emit'],
      argumentList: [
        { type: 'RAW', value: 't' },
        { type: 'RAW', value: new Map([[1, 2]]) },
      ],
    },
  });
  child.emit('message', { ch: 'host', m: { id: '2', type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: 1 } } });
  child.emit('message', {
    ch: 'host',
    m: {
      id: '3',
      type: 'APPLY',
      path: ['$emit'],
      argumentList: [
        { type: 'RAW', value: 't' },
        { type: 'RAW', value: 'x'.repeat(4000) },
      ],
    },
  });
  await new Promise((r) => setImmediate(r));
  expect(conn.drops).toMatchObject({ malformed: 2, refused: 1 });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  // The oversized call is answered with the cap named.
  expect(child.posted).toContainEqual({ ch: 'host', m: expect.objectContaining({ id: '3', type: 'HANDLER', name: 'throw' }) });
  expect(conn.alive).toBe(true);
});

test('a clone over the frame cap ends that plugin with the reason', async () => {
  const { proc, child } = launch({}, 10_000);
  const conn = new PluginConnection('u', proc, host, { log: () => {} });
  child.emit('message', { ch: 'ready' });
  await conn.ready(100);
  child.emit('message', { ch: 'host', m: 'x'.repeat(20_000) });
  expect(child.killed).toBe(true);
  const error = await new Promise<Error>((resolve) => conn.onDead((e) => resolve(e)));
  expect(error.message).toBe("The plugin 'u' stopped: its process was stopped: it sent a message larger than 10 KB.");
});

test('a shared host in the desktop app: one utility process for a group, each plugin routed by name, a clone naming another plugin reaching only it', async () => {
  const forks: { args: string[]; options: { serviceName: string } }[] = [];
  const child = new FakeUtility();
  const launcher = createUtilityLauncher({
    fork: ((_entry: string, args: string[], options: { serviceName: string }) => {
      forks.push({ args, options });
      return child as unknown as UtilityProcess;
    }) as never,
  });
  const shared = createSharedHostLauncher(launcher);
  const a = shared({ pluginId: 'alpha', group: 'bundled' });
  const b = shared({ pluginId: 'beta', group: 'bundled' });
  expect(forks).toHaveLength(1);
  expect(forks[0]!.args).toEqual(['--amber-shared=bundled']);
  expect(forks[0]!.options.serviceName).toBe('Amber plugins (bundled)');
  expect(child.posted).toEqual([
    { p: 'alpha', ch: 'open' },
    { p: 'beta', ch: 'open' },
  ]);
  const connA = new PluginConnection('alpha', a, host, { log: () => {} });
  const connB = new PluginConnection('beta', b, host, { log: () => {} });
  child.emit('message', { p: 'beta', ch: 'ready' });
  await connB.ready(100);
  // A clone naming no plugin, or one not in this host, reaches neither connection.
  child.emit('message', { ch: 'host', m: { id: '1', type: 'APPLY', path: ['$emit'], argumentList: [{ type: 'RAW', value: 't' }] } });
  child.emit('message', { p: 'gamma', ch: 'ready' });
  child.emit('message', { p: 'BETA', ch: 'ready' });
  await new Promise((r) => setImmediate(r));
  expect(shared.hosts()[0]!.unrouted).toBe(3);
  await expect(connA.ready(50)).rejects.toThrow();
  expect(connB.drops).toEqual({ rate: 0, refused: 0, malformed: 0, invalid: 0, failed: 0 });
  // What main sends to a plugin goes with its name.
  a.send({ ch: 'plugin', m: { id: 'x' } });
  expect(child.posted.at(-1)).toEqual({ p: 'alpha', ch: 'plugin', m: { id: 'x' } });
});
