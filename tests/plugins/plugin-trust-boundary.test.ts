import { afterEach, expect, test } from 'vitest';
import type { ToolOutput } from '../../src/shared/tools/tool-spec.ts';
import type { PluginProcess } from '../../src/main/plugins/index.ts';
import { createHarness, fixture, type Harness, type HarnessLaunch, HOSTILE_HOST } from './plugin-harness.ts';

// A plugin process that writes raw messages to main (tests/fixtures/plugins/hostile/host.ts): whatever it
// sends, main keeps serving, Object.prototype stays as it was, and plugins started afterwards get a clean
// environment. Each line it writes and main does not accept is counted once and logged.

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

function start(options: Parameters<typeof createHarness>[1] = {}, onLaunch?: HarnessLaunch['onLaunch']): Promise<void> {
  h = createHarness(
    [fixture('hostile'), fixture('echo'), fixture('probe', { enabledByDefault: false })],
    { restartBackoffMs: 60_000, ...options },
    {
      hostEntries: { hostile: HOSTILE_HOST },
      ...(onLaunch ? { onLaunch } : {}),
      env: { ...process.env, OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' },
    },
  );
  return h.service.start();
}

const textOf = (out: ToolOutput) => out.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** Has the fixture write `lines`; resolves with the replies main sent to the ids it used. */
async function attack(
  harness: Harness,
  params: Record<string, unknown>,
): Promise<Record<string, { type: string; name?: string; value?: { isError?: boolean; value?: { message?: string } } }>> {
  const out = await harness.service.registries.tools.execute('attack', params);
  expect(out.isError, textOf(out)).toBe(false);
  return JSON.parse(textOf(out));
}

/** Main answers, its prototypes are untouched, and a plugin started now sees only the allow-listed environment. */
async function expectMainUnharmed(harness: Harness): Promise<void> {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(harness.service.list().map((p) => p.id)).toEqual(['hostile', 'echo', 'probe']);
  expect(textOf(await harness.service.registries.tools.execute('echo', { text: 'still here' }))).toBe('still here');
  expect((await harness.service.setState('probe', true)).state).toBe('active');
  const env = JSON.parse(textOf(await harness.service.registries.tools.execute('env', {}))) as Record<string, string>;
  expect(env.OPENAI_API_KEY).toBeUndefined();
  expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  expect(env.NODE_OPTIONS).toBeUndefined();
  expect(env.polluted).toBeUndefined();
  expect(env.AMBER_PLUGIN_ID).toBe('probe');
  expect(env.PATH).toBe(process.env.PATH);
  await harness.service.setState('probe', false);
}

/** One message of notes (one-way calls), as a plugin host writes it. */
const note = (...notes: [string, unknown[]][]) => JSON.stringify({ ch: 'note', m: notes });

const call = (id: string, method: string, args: unknown[]) =>
  JSON.stringify({ ch: 'host', m: { id, type: 'APPLY', path: [method], argumentList: args.map((value) => ({ type: 'RAW', value })) } });

const prototypeWalks = [
  '{"ch":"host","m":{"id":"p1","type":"SET","path":["__proto__","polluted"],"value":{"type":"RAW","value":"yes"}}}',
  '{"ch":"host","m":{"id":"p2","type":"SET","path":["constructor","prototype","polluted"],"value":{"type":"RAW","value":"yes"}}}',
  '{"ch":"host","m":{"id":"p3","type":"SET","path":["$log"],"value":{"type":"RAW","value":null}}}',
  '{"ch":"host","m":{"id":"p4","type":"GET","path":["__proto__"]}}',
  '{"ch":"host","m":{"id":"p5","type":"GET","path":["constructor","constructor"]}}',
  '{"ch":"host","m":{"id":"p6","type":"APPLY","path":["constructor","assign"],"argumentList":[{"type":"RAW","value":{}},{"type":"RAW","value":{"polluted":"yes"}}]}}',
  '{"ch":"host","m":{"id":"p7","type":"APPLY","path":["__proto__","__defineGetter__"],"argumentList":[{"type":"RAW","value":"polluted"}]}}',
  '{"ch":"host","m":{"id":"p8","type":"APPLY","path":["constructor"],"argumentList":[]}}',
  '{"ch":"host","m":{"id":"p9","type":"APPLY","path":["hasOwnProperty"],"argumentList":[{"type":"RAW","value":"x"}]}}',
  '{"ch":"host","m":{"id":"p10","type":"CONSTRUCT","path":["$log"],"argumentList":[]}}',
  '{"ch":"host","m":{"id":"p11","type":"ENDPOINT"}}',
  '{"ch":"host","m":{"id":"p12","type":"RELEASE"}}',
  '{"ch":"host","m":{"id":"p13","type":"APPLY","path":["$emit"],"argumentList":[{"type":"RAW","value":"t.x"},{"type":"RAW","value":{"__proto__":{"polluted":"yes"}}}]}}',
  '{"ch":"host","m":{"id":"p14","type":"APPLY","path":["$log"],"argumentList":[{"type":"HANDLER","name":"proxy","value":{}}]}}',
  '{"ch":"__proto__","m":{"id":"p15","type":"SET","path":["polluted"],"value":{"type":"RAW","value":"yes"}}}',
  '{"__proto__":{"polluted":"yes"},"ch":"host"}',
];

const malformed = [
  'not json',
  '{"ch":"host","m":{"id":"a1","type":"APPLY","path":["$log"],"argumentList":5}}',
  '{"ch":"host","m":{"id":"a2","type":"APPLY","path":["$log"],"argumentList":[{"type":"HANDLER","name":"nope","value":1}]}}',
  '{"ch":"host","m":{"id":"a3","type":"APPLY","path":"$log","argumentList":[]}}',
  '{"ch":"host","m":{"type":"APPLY","path":["$log"],"argumentList":[]}}',
  '{"ch":"host","m":null}',
  '{"ch":"host"}',
  '[]',
  '42',
  'null',
  `{"ch":"host","m":{"id":"a4","type":"APPLY","path":["$emit"],"argumentList":[{"type":"RAW","value":"t.x"},{"type":"RAW","value":${'['.repeat(5000)}${']'.repeat(5000)}}]}}`,
  // Node's own IPC control messages, which its fork channel acts on.
  '{"cmd":"NODE_HANDLE_ACK"}',
  '{"cmd":"NODE_HANDLE_NACK"}',
  '{"cmd":"NODE_HANDLE","msg":{"cmd":"NODE_HANDLE_ACK"}}',
  // Replies to calls main never made, or that comlink would turn into a proxy.
  '{"ch":"plugin","m":{"id":"nobody","type":"RAW","value":1}}',
  '{"ch":"plugin","m":{"id":"nobody","type":"HANDLER","name":"proxy","value":{}}}',
];

test.each([
  ['prototype-walking comlink messages (GET, SET, CONSTRUCT, ENDPOINT, RELEASE, long paths, __proto__ data)', prototypeWalks],
  ['malformed messages, Node IPC control objects, a non-JSON line and stray replies', malformed],
])('%s are dropped, counted and logged, and main is unharmed', async (_name, lines) => {
  await start();
  const before = h!.service.get('hostile').dropped.messages;
  const replies = await attack(h!, { lines });
  // None of them was answered: only the ordinary call that followed them.
  expect(Object.keys(replies).filter((id) => !id.startsWith('call-'))).toEqual([]);
  expect(h!.service.get('hostile')).toMatchObject({ state: 'active', dropped: { messages: before + lines.length } });
  expect(h!.service.logs('hostile').some((l) => l.level === 'warn' && /^The plugin 'hostile' sent .*, which was dropped\./.test(l.message))).toBe(true);
  await expectMainUnharmed(h!);
});

test('a call of a known method with arguments its schema refuses is answered with the reason, and counted', async () => {
  await start();
  const replies = await attack(h!, {
    lines: [
      call('v1', '$updateStatus', [{ id: 'seg', text: 5 }]),
      call('v2', '$providerEvent', ['s1', [{ type: 'done' }]]),
      call('v3', '$emit', ['../not a topic', 1]),
      call('v4', '$log', ['shout', 'x']),
    ],
  });
  for (const id of ['v1', 'v2', 'v3', 'v4']) expect(replies[id]).toMatchObject({ type: 'HANDLER', name: 'throw', value: { isError: true } });
  expect(replies.v1!.value!.value!.message).toMatch(/^The plugin 'hostile' called \$updateStatus with arguments main does not accept at 0\.text: /);
  expect(replies.v2!.value!.value!.message).toMatch(/\$providerEvent .* at 1\.0/);
  expect(h!.service.get('hostile').dropped.messages).toBe(4);
  await expectMainUnharmed(h!);
});

test('a note of a pushed view with arguments its schema refuses is dropped, counted and logged as its refused call was; a message with a note of a method main takes only as a call is refused whole', async () => {
  await start();
  const before = h!.service.get('hostile').dropped.messages;
  await attack(h!, {
    lines: [
      note(['$updateStatus', [{ id: 'seg', text: 5 }]], ['$updatePanel', [{ id: 'p', title: 7 }]]),
      note(['$updateWallet', ['w', { balance: 'lots' }]], ['$log', ['info', 'a note of a method main takes only as a call']]),
    ],
  });
  const logs = h!.service.logs('hostile').map((l) => l.message);
  expect(logs.some((m) => m.startsWith("The plugin 'hostile' sent a note of $updateStatus with arguments main does not accept at 0.text: "))).toBe(true);
  // The refusal the plugin logged as an error when the view was a call: logged so still.
  const errors = h!.service
    .logs('hostile')
    .filter((l) => l.level === 'error')
    .map((l) => l.message);
  expect(errors.some((m) => m.startsWith("The plugin 'hostile' called $updatePanel with arguments main does not accept at 0.title: "))).toBe(true);
  // Two refused by their schema; the second message is refused whole, for naming a method that is not a note.
  expect(h!.service.get('hostile').dropped.messages).toBe(before + 3);
  expect(logs.some((m) => m.includes('a note of a method main takes only as a call'))).toBe(false);
  await expectMainUnharmed(h!);
});

test('a 2 MB argument is refused unread with a sentence naming the cap, without stalling main', async () => {
  await start();
  let worstLag = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worstLag = Math.max(worstLag, now - last - 5);
    last = now;
  }, 5);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  let replies: Awaited<ReturnType<typeof attack>>;
  try {
    replies = await attack(h!, { big: 2_000_000 });
  } finally {
    clearInterval(probe);
  }
  const figures = {
    ms: Math.round(performance.now() - started),
    worstLagMs: Math.round(worstLag),
    rssGrowthMb: Math.round((process.memoryUsage().rss - rssBefore) / 1e5) / 10,
  };
  console.log(`2 MB argument: ${JSON.stringify(figures)}`);
  const refusal = "The plugin 'hostile' sent a message of 1.9 MB, over the limit of 1 MB per message, so it was refused.";
  expect(replies.big).toMatchObject({ type: 'HANDLER', name: 'throw', value: { isError: true, value: { message: refusal } } });
  expect(h!.service.logs('hostile').map((l) => l.message)).toContain(refusal);
  expect(h!.service.get('hostile')).toMatchObject({ state: 'active', dropped: { messages: 1 } });
  expect(worstLag).toBeLessThan(500);
  await expectMainUnharmed(h!);
});

test('a reply comlink would turn into a proxy fails that call with a clear error, not main', async () => {
  await start();
  const out = await h!.service.registries.tools.execute('badreply', {});
  expect(out.isError).toBe(true);
  expect(textOf(out)).toMatch(/The plugin 'hostile' answered \$executeTool with something that is not a valid reply: it is neither a value nor an error\./);
  expect(h!.service.get('hostile').state).toBe('active');
  await expectMainUnharmed(h!);
});

test('an over-long line ends that plugin with the reason, never main', async () => {
  await start();
  const out = await h!.service.registries.tools.execute('overlong', { bytes: 9 * 1024 * 1024 });
  expect(out.isError).toBe(true);
  expect(textOf(out)).toBe("The plugin 'hostile' stopped: its process was stopped: it sent a line longer than 8 MB on its pipe.");
  const info = await h!.until('hostile', (i) => i.state === 'failed');
  expect(info.reason).toMatch(/^The plugin's process was stopped: it sent a line longer than 8 MB on its pipe\. Restarting in 60 s\.$/);
  await expectMainUnharmed(h!);
});

test('a flood of hostile lines is dropped and counted while main stays responsive', async () => {
  await start();
  let worstLag = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worstLag = Math.max(worstLag, now - last - 10);
    last = now;
  }, 10);
  try {
    const flood = attack(h!, { lines: [prototypeWalks[0], malformed[0], malformed[11]], repeat: 20_000 });
    // While it floods, another plugin answers promptly.
    const started = performance.now();
    expect(textOf(await h!.service.registries.tools.execute('echo', { text: 'during' }))).toBe('during');
    expect(performance.now() - started).toBeLessThan(1000);
    await flood;
  } finally {
    clearInterval(probe);
  }
  const info = h!.service.get('hostile');
  expect(info.state).toBe('active');
  // Every line is dropped (by the gate, or by the rate limit first); so may be the ordinary calls that follow.
  expect(info.dropped.messages).toBeGreaterThanOrEqual(60_000);
  // One log line a second per kind of drop, not one per message.
  expect(h!.service.logs('hostile').length).toBeLessThan(50);
  expect(worstLag).toBeLessThan(500);
  await expectMainUnharmed(h!);
});

test("a plugin that stops reading its pipe gets no more answers: main's write queue stays bounded and it keeps serving", async () => {
  let congested: (() => void) | null = null;
  const logged = new Promise<void>((resolve) => (congested = resolve));
  let hostile: PluginProcess | null = null;
  await start(
    {
      onLog: (id, line) => {
        if (id === 'hostile' && line.message.includes("left main's answers unread")) congested?.();
      },
    },
    (id, proc) => {
      if (id === 'hostile') hostile = proc;
    },
  );
  // Each answer to $getConfig is about 200 KB: answering all 400 calls would queue 80 MB in main.
  h!.config.set('hostile', { blob: 'x'.repeat(200_000) });
  expect(textOf(await h!.service.registries.tools.execute('deaf', { calls: 400 }))).toBe('deaf');
  await logged;
  await new Promise((r) => setImmediate(r));
  // At most the 1 MB at which the pipe counts as congested, and the one answer that crossed it.
  expect(hostile!.queuedBytes).toBeLessThan(1024 * 1024 + 250_000);
  expect(h!.service.get('hostile').dropped.messages).toBeGreaterThan(0);
  expect(textOf(await h!.service.registries.tools.execute('echo', { text: 'still here' }))).toBe('still here');
});
