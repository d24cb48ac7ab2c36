import { expose, wrap, type Endpoint } from 'comlink';
import { expect, test } from 'vitest';
import { createChannelRouter } from '../../../shared/plugins/index.ts';
import type { HostApi, PluginApi } from '../../../shared/plugins/index.ts';
import { CHANNEL_HOST, CHANNEL_NOTE, CHANNEL_PLUGIN, CHANNEL_READY } from '../../../shared/plugins/index.ts';
import { PluginConnection } from './plugin-connection.ts';
import { lineFrame, type PipeFrame, type PluginExit, type PluginProcess } from '../launchers/plugin-launcher.ts';

// PluginConnection against an in-memory process: a peer that speaks the same channels over a fake pipe,
// whose death, congestion and silence the test controls.

interface FakePeer {
  process: PluginProcess & { congested: boolean };
  /** Calls main's HostApi as the plugin would. */
  host: HostApi;
  /** Writes one raw line to main, as a plugin that bypasses comlink could. */
  raw(line: string): void;
  /** Every message main sent to the plugin, as JSON. */
  sent: unknown[];
  exit(e: PluginExit): void;
}

function fakePeer(plugin: Partial<PluginApi>): FakePeer {
  const toMain: ((frame: PipeFrame) => void)[] = [];
  const exits: ((e: PluginExit) => void)[] = [];
  const sent: unknown[] = [];
  // Both directions go through JSON text, as on the real pipe.
  const peer = createChannelRouter((envelope) => {
    const line = JSON.stringify(envelope);
    queueMicrotask(() => toMain.forEach((l) => l(lineFrame(line))));
  });
  let open = true;
  const proc = {
    pid: 4242,
    congested: false,
    get connected() {
      return open;
    },
    send(message: unknown) {
      if (!open) return false;
      const copy: unknown = JSON.parse(JSON.stringify(message));
      sent.push(copy);
      queueMicrotask(() => peer.dispatch(copy));
      return true;
    },
    onMessage: (l: (frame: PipeFrame) => void) => void toMain.push(l),
    onExit: (l: (e: PluginExit) => void) => void exits.push(l),
    onOutput: () => {},
    disconnect: () => void (open = false),
    kill: () => {},
  };
  expose(plugin, peer.endpoint(CHANNEL_PLUGIN) as unknown as Endpoint);
  // Notes are one-way calls: run, never answered (as the plugin host does).
  peer.endpoint(CHANNEL_NOTE).addEventListener('message', (event) => {
    const notes = (event as { data: [keyof PluginApi, unknown[]][] }).data;
    for (const [method, args] of notes) void (plugin[method] as (...a: unknown[]) => Promise<unknown>)(...args);
  });
  const host = wrap<HostApi>(peer.endpoint(CHANNEL_HOST) as unknown as Endpoint) as unknown as HostApi;
  queueMicrotask(() => toMain.forEach((l) => l(lineFrame(JSON.stringify({ ch: CHANNEL_READY })))));
  return {
    process: proc,
    host,
    sent,
    raw: (line) => toMain.forEach((l) => l(lineFrame(line))),
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
  $setTools: async () => {},
  $elicit: async () => ({ action: 'decline' }),
  $elicitCancel: async () => {},
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

// The gate: what a plugin process that bypasses comlink can send, line by line.

const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
const settle = () => new Promise((r) => setImmediate(r));

test('a SET, GET, CONSTRUCT or long path through __proto__ or constructor never reaches comlink: nothing is polluted, each is counted', async () => {
  const peer = fakePeer({});
  const logged: string[] = [];
  const conn = new PluginConnection('p', peer.process, quietHost(), { log: (_level, m) => logged.push(m) });
  await conn.ready(1000);
  const lines = [
    '{"ch":"host","m":{"id":"1","type":"SET","path":["__proto__","polluted"],"value":{"type":"RAW","value":"yes"}}}',
    '{"ch":"host","m":{"id":"2","type":"SET","path":["constructor","prototype","polluted"],"value":{"type":"RAW","value":"yes"}}}',
    '{"ch":"host","m":{"id":"3","type":"GET","path":["constructor","constructor"]}}',
    '{"ch":"host","m":{"id":"4","type":"CONSTRUCT","path":["$log"],"argumentList":[]}}',
    '{"ch":"host","m":{"id":"5","type":"APPLY","path":["constructor","assign"],"argumentList":[{"type":"RAW","value":{}},{"type":"RAW","value":{"polluted":"yes"}}]}}',
    '{"ch":"host","m":{"id":"6","type":"ENDPOINT"}}',
  ];
  for (const line of lines) peer.raw(line);
  await settle();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(conn.drops).toMatchObject({ malformed: lines.length });
  expect(conn.dropped).toBe(lines.length);
  // Nothing was answered, and one line was logged for the burst.
  expect(peer.sent.filter((m) => (m as { ch: string }).ch === 'host')).toEqual([]);
  expect(logged).toEqual(["The plugin 'p' sent a host call main does not accept (it is a SET message, and only calls are accepted), which was dropped."]);
});

test('a message that would throw inside comlink is counted instead of ending main', async () => {
  const peer = fakePeer({});
  const conn = new PluginConnection('p', peer.process, quietHost(), { log: () => {} });
  await conn.ready(1000);
  peer.raw('{"ch":"host","m":{"id":"1","type":"APPLY","path":["$log"],"argumentList":5}}');
  peer.raw('{"ch":"host","m":{"id":"2","type":"APPLY","path":["$log"],"argumentList":[{"type":"HANDLER","name":"nope","value":1}]}}');
  peer.raw('{"cmd":"NODE_HANDLE_ACK"}');
  peer.raw('not json');
  peer.raw('{"ch":"plugin","m":{"id":"nobody","type":"HANDLER","name":"proxy","value":{}}}');
  await settle();
  expect(conn.drops.malformed).toBe(5);
  expect(conn.alive).toBe(true);
});

test('a reply comlink cannot take fails that call with the reason; a reply to no pending call is dropped', async () => {
  const peer = fakePeer({ $tick: never, $renderBlock: async () => 'fine' });
  const conn = new PluginConnection('p', peer.process, quietHost(), { log: () => {} });
  await conn.ready(1000);
  const call = conn.call('$tick', [], 1000);
  const id = (peer.sent.at(-1) as { m: { id: string } }).m.id;
  peer.raw(JSON.stringify({ ch: 'plugin', m: { type: 'HANDLER', name: 'proxy', value: {}, id } }));
  await expect(call).rejects.toThrow("The plugin 'p' answered $tick with something that is not a valid reply: it is neither a value nor an error.");
  // The real answer comes later: it no longer answers anything.
  peer.raw(JSON.stringify({ ch: 'plugin', m: { type: 'RAW', value: null, id } }));
  await settle();
  expect(conn.drops.malformed).toBe(2);
  expect(await conn.call('$renderBlock', ['b', { sessionId: null, workspace: '/' }], 1000)).toBe('fine');
});

test('a message over the cap is refused unread with the cap named: a host call is answered so, a reply fails its call', async () => {
  const peer = fakePeer({ $renderBlock: async () => 'x'.repeat(5000) });
  const logged: string[] = [];
  const conn = new PluginConnection('p', peer.process, quietHost(), { maxMessageBytes: 1024, log: (_l, m) => logged.push(m) });
  await conn.ready(1000);
  await expect(conn.call('$renderBlock', ['b', { sessionId: null, workspace: '/' }], 1000)).rejects.toThrow(
    /^The plugin 'p' sent a message of 5 KB, over the limit of 1 KB per message, so it was refused\.$/,
  );
  await expect(peer.host.$emit('big.topic', 'y'.repeat(4000))).rejects.toThrow(/over the limit of 1 KB per message/);
  expect(conn.drops.refused).toBe(2);
  expect(logged[0]).toMatch(/over the limit of 1 KB/);
});

test('a known method with arguments its schema refuses is answered with the reason and never reaches the HostApi', async () => {
  const peer = fakePeer({});
  const topics: string[] = [];
  const conn = new PluginConnection('p', peer.process, quietHost(topics), { log: () => {} });
  await conn.ready(1000);
  await expect(peer.host.$emit('not a topic!', 1)).rejects.toThrow(/^The plugin 'p' called \$emit with arguments main does not accept at 0: /);
  await expect(peer.host.$providerEvent('s', [{ type: 'text_delta' } as never])).rejects.toThrow(/\$providerEvent .* at 1\.0/);
  await peer.host.$emit('fine.topic', { n: 1 });
  expect(topics).toEqual(['fine.topic']);
  expect(conn.drops.invalid).toBe(2);
});

test('a timed-out call settles comlink too, so its late answer is refused', async () => {
  let answer: ((v: string) => void) | null = null;
  const peer = fakePeer({ $renderBlock: () => new Promise<string>((r) => (answer = r)) });
  const conn = new PluginConnection('p', peer.process, quietHost(), { log: () => {} });
  await conn.ready(1000);
  await expect(conn.call('$renderBlock', ['b', { sessionId: null, workspace: '/' }], 20)).rejects.toThrow('did not answer $renderBlock within 20 ms');
  answer!('late');
  await settle();
  await settle();
  expect(conn.drops.malformed).toBe(1);
});

test('a frame whose handling throws is counted as failed and logged for the plugin, never thrown into main', () => {
  let deliver: ((frame: PipeFrame) => void) | null = null;
  const proc: PluginProcess = {
    pid: undefined,
    connected: true,
    send: () => true,
    onMessage: (l) => void (deliver = l),
    onExit: () => {},
    onOutput: () => {},
    disconnect: () => {},
    kill: () => {},
  };
  const logged: string[] = [];
  const conn = new PluginConnection('q', proc, quietHost(), { maxMessageBytes: 10, log: (_l, m) => logged.push(m) });
  const hostile: PipeFrame = {
    bytes: 100,
    read: () => null,
    peek: () => {
      throw new Error('peek exploded');
    },
  };
  expect(() => deliver!(hostile)).not.toThrow();
  expect(conn.drops).toMatchObject({ refused: 1, failed: 1 });
  expect(logged.at(-1)).toBe("The plugin 'q' sent a message whose handling failed (peek exploded), which was dropped.");
  expect(conn.alive).toBe(true);
});

test('events sent with notify go together after the delay, or at once before a later call, in the order they were made', async () => {
  const order: string[] = [];
  const peer = fakePeer({
    $event: async (topic: string) => void order.push(`event ${topic}`),
    $checkAllowance: async () => (order.push('check'), { allowed: true }),
  });
  const conn = new PluginConnection('p', peer.process, quietHost(), { notifyDelayMs: 60_000 });
  await conn.ready(1000);
  const events = [conn.notify('$event', ['a', {}]), conn.notify('$event', ['b', {}])];
  await Promise.resolve();
  expect(peer.sent).toEqual([]);
  // The check goes after the events made before it, without waiting for the delay.
  expect(await conn.call('$checkAllowance', ['budget', { providerId: 'p', modelId: 'm' }], 1000)).toEqual({ allowed: true });
  await Promise.all(events);
  expect(order).toEqual(['event a', 'event b', 'check']);
  // The two events went in one message, and the plugin answered neither.
  expect(peer.sent[0]).toEqual({
    ch: CHANNEL_NOTE,
    m: [
      ['$event', ['a', {}]],
      ['$event', ['b', {}]],
    ],
  });
  expect(peer.sent.filter((m) => (m as { ch: string }).ch === CHANNEL_NOTE)).toHaveLength(1);

  const quick = new PluginConnection('q', fakePeer({ $event: async () => {} }).process, quietHost(), { notifyDelayMs: 5 });
  await quick.ready(1000);
  await expect(quick.notify('$event', ['c', {}])).resolves.toBeUndefined();
  // A dead connection rejects what still waits.
  const waiting = conn.notify('$event', ['d', {}]);
  conn.close(new Error('closed by main'));
  await expect(waiting).rejects.toThrow('closed by main');
});

test("a plugin's notes reach main's HostApi unanswered, checked like calls; a note of another method or with bad arguments is dropped and counted", async () => {
  const peer = fakePeer({});
  const got: unknown[] = [];
  const conn = new PluginConnection('p', peer.process, { ...quietHost(), $providerEvent: async (streamId, events) => void got.push([streamId, events]) });
  await conn.ready(1000);
  const done = { type: 'done', message: { role: 'assistant', content: [], stopReason: 'stop', timestamp: 1 } };
  peer.raw(JSON.stringify({ ch: CHANNEL_NOTE, m: [['$providerEvent', ['s1', [done]]]] }));
  expect(got).toEqual([['s1', [done]]]);
  const sentBefore = peer.sent.length;
  peer.raw(JSON.stringify({ ch: CHANNEL_NOTE, m: [['$emit', ['topic', {}]]] }));
  peer.raw(JSON.stringify({ ch: CHANNEL_NOTE, m: [['$providerEvent', ['s1', 'not events']]] }));
  peer.raw(JSON.stringify({ ch: CHANNEL_NOTE, m: 'not a list' }));
  await Promise.resolve();
  expect(got).toHaveLength(1);
  expect(conn.drops).toMatchObject({ malformed: 2, invalid: 1 });
  // Nothing answers a note, not even a refused one.
  expect(peer.sent.length).toBe(sentBefore);
  expect(conn.alive).toBe(true);
});
