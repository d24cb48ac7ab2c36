import { expect, test } from 'vitest';
import { lineFrame, type PipeFrame, type PluginExit, type PluginProcess } from './plugin-launcher.ts';
import { createSharedHostLauncher } from './shared-host-launcher.ts';

/** A host process held in memory: what main sends is recorded, and the test writes the host's lines. */
function fakeHost() {
  const sent: unknown[] = [];
  const message: ((f: PipeFrame) => void)[] = [];
  const exit: ((e: PluginExit) => void)[] = [];
  let connected = true;
  const killed: string[] = [];
  const proc: PluginProcess = {
    pid: 4242,
    get connected() {
      return connected;
    },
    send: (m) => (connected ? (sent.push(m), true) : false),
    onMessage: (l) => void message.push(l),
    onExit: (l) => void exit.push(l),
    onOutput: () => {},
    disconnect: () => {
      connected = false;
    },
    kill: (signal = 'SIGTERM') => void killed.push(signal),
  };
  return {
    proc,
    sent,
    killed,
    line: (text: string) => message.forEach((l) => l(lineFrame(text))),
    exit: (e: PluginExit) => {
      connected = false;
      exit.forEach((l) => l(e));
    },
  };
}

function setup() {
  const hosts: ReturnType<typeof fakeHost>[] = [];
  const launcher = createSharedHostLauncher((request) => {
    expect(request.shared).toBe(true);
    const h = fakeHost();
    hosts.push(h);
    return h.proc;
  });
  return { launcher, hosts };
}

function received(proc: PluginProcess): unknown[] {
  const out: unknown[] = [];
  proc.onMessage((f) => out.push(f.read()));
  return out;
}

test('plugins of one group share one host; each sees only the envelopes that name it, rebuilt without the name', () => {
  const { launcher, hosts } = setup();
  const a = launcher({ pluginId: 'alpha', group: 'g' });
  const b = launcher({ pluginId: 'beta', group: 'g' });
  expect(hosts).toHaveLength(1);
  expect(a.pid).toBe(4242);
  expect(hosts[0]!.sent).toEqual([
    { p: 'alpha', ch: 'open' },
    { p: 'beta', ch: 'open' },
  ]);
  const fromA = received(a);
  const fromB = received(b);
  hosts[0]!.line('{"p":"alpha","ch":"host","m":{"id":"1","type":"APPLY","path":["$log"]}}');
  hosts[0]!.line('{"p":"beta","ch":"ready"}');
  expect(fromA).toEqual([{ ch: 'host', m: { id: '1', type: 'APPLY', path: ['$log'] } }]);
  expect(fromB).toEqual([{ ch: 'ready' }]);
  expect(a.send({ ch: 'plugin', m: { id: '9' } })).toBe(true);
  expect(hosts[0]!.sent.at(-1)).toEqual({ p: 'alpha', ch: 'plugin', m: { id: '9' } });
  // Another group gets a host of its own.
  launcher({ pluginId: 'gamma', group: 'other' });
  expect(hosts).toHaveLength(2);
});

test('envelopes that name no plugin, a plugin the host does not carry, or a name out of the rules reach nobody', () => {
  const { launcher, hosts } = setup();
  const a = launcher({ pluginId: 'alpha', group: 'g' });
  const fromA = received(a);
  const hostile = [
    '{"ch":"host","m":{"id":"1","type":"APPLY","path":["$emit"]}}',
    '{"p":"beta","ch":"host","m":{}}',
    '{"p":"ALPHA","ch":"host","m":{}}',
    '{"p":"alpha\\"x","ch":"host","m":{}}',
    '{"p":"alpha","m":{},"ch":"host"}',
    '{ "p":"alpha","ch":"host","m":{}}',
    `{"p":"${'a'.repeat(65)}","ch":"host","m":{}}`,
    'not json at all',
  ];
  for (const line of hostile) hosts[0]!.line(line);
  expect(fromA).toEqual([]);
  expect(launcher.hosts()).toEqual([{ group: 'g', pid: 4242, plugins: ['alpha'], unrouted: hostile.length }]);
});

test('a plugin whose envelope is not JSON past its name gets a frame that fails to read, as an unshared plugin would', () => {
  const { launcher, hosts } = setup();
  const a = launcher({ pluginId: 'alpha', group: 'g' });
  const frames: PipeFrame[] = [];
  a.onMessage((f) => frames.push(f));
  hosts[0]!.line('{"p":"alpha","ch":"host","m":{oops}');
  expect(frames).toHaveLength(1);
  expect(() => frames[0]!.read()).toThrow();
  expect(frames[0]!.peek()).toEqual({ ch: 'host' });
});

test('closing one plugin leaves its neighbour and the host; the last one out ends the host, and only then is it gone', () => {
  const { launcher, hosts } = setup();
  const a = launcher({ pluginId: 'alpha', group: 'g' });
  const b = launcher({ pluginId: 'beta', group: 'g' });
  const exits: [string, PluginExit][] = [];
  a.onExit((e) => exits.push(['alpha', e]));
  b.onExit((e) => exits.push(['beta', e]));
  a.disconnect();
  expect(hosts[0]!.sent.at(-1)).toEqual({ p: 'alpha', ch: 'close' });
  expect(a.connected).toBe(false);
  expect(a.send({ ch: 'plugin', m: {} })).toBe(false);
  hosts[0]!.line('{"p":"alpha","ch":"closed"}');
  expect(exits).toEqual([['alpha', { code: 0, signal: null }]]);
  // Late envelopes for a closed plugin reach nobody.
  hosts[0]!.line('{"p":"alpha","ch":"host","m":{}}');
  expect(launcher.hosts()[0]!.unrouted).toBe(1);

  b.disconnect();
  hosts[0]!.line('{"p":"beta","ch":"closed"}');
  expect(hosts[0]!.proc.connected).toBe(false);
  expect(exits).toHaveLength(1);
  hosts[0]!.exit({ code: 0, signal: null });
  expect(exits).toEqual([
    ['alpha', { code: 0, signal: null }],
    ['beta', { code: 0, signal: null }],
  ]);
  // The next plugin of the group starts a new host.
  launcher({ pluginId: 'alpha', group: 'g' });
  expect(hosts).toHaveLength(2);
});

test('killing one plugin ends the host: it is told how, and its neighbours are told whose stop ended them', () => {
  const { launcher, hosts } = setup();
  const a = launcher({ pluginId: 'alpha', group: 'g' });
  const b = launcher({ pluginId: 'beta', group: 'g' });
  const exits = new Map<string, PluginExit>();
  a.onExit((e) => exits.set('alpha', e));
  b.onExit((e) => exits.set('beta', e));
  a.kill('SIGKILL');
  expect(hosts[0]!.killed).toEqual(['SIGKILL']);
  hosts[0]!.exit({ code: null, signal: 'SIGKILL' });
  expect(exits.get('alpha')).toEqual({ code: null, signal: 'SIGKILL', reason: 'was killed (SIGKILL)' });
  expect(exits.get('beta')).toEqual({
    code: null,
    signal: 'SIGKILL',
    reason: "(shared with other plugins) was ended because the plugin 'alpha' did not stop in time",
  });
});

test('a crash of the host fails every plugin in it, each told the process was shared', () => {
  const { launcher, hosts } = setup();
  const a = launcher({ pluginId: 'alpha', group: 'g' });
  const b = launcher({ pluginId: 'beta', group: 'g' });
  const reasons: string[] = [];
  a.onExit((e) => reasons.push(e.reason!));
  b.onExit((e) => reasons.push(e.reason!));
  hosts[0]!.exit({ code: 1, signal: null });
  expect(reasons).toEqual(['(shared with other plugins) exited with code 1', '(shared with other plugins) exited with code 1']);
  expect(a.connected).toBe(false);
});

test('one plugin cannot be opened twice in a running host', () => {
  const { launcher } = setup();
  launcher({ pluginId: 'alpha', group: 'g' });
  expect(() => launcher({ pluginId: 'alpha', group: 'g' })).toThrow("The plugin 'alpha' is already running in the shared plugin process.");
});
