// Plugins in a shared host: one process carries several plugins, each on its own channel, and each keeps its
// own API, ledger entries, state, timeouts and crash count. The fault tests of plugin-faults.test.ts, for
// plugins that share a process.
import { afterEach, expect, test } from 'vitest';
import type { ModelInfo, ProviderEvent } from '../../src/shared/providers/provider-stream.ts';
import { createHarness, example, fixture, type Harness, isAlive } from './plugin-harness.ts';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const shared = { sharedHosts: true } as const;
const text = (out: { content: { text?: string }[] }) => out.content[0]?.text;

test('bundled plugins share one process, each with its own tools, ledger entries and state', async () => {
  h = createHarness([fixture('faulty'), example()], shared);
  await h.service.start();
  const faulty = h.service.get('faulty');
  const ex = h.service.get('example');
  expect(faulty).toMatchObject({ state: 'active', process: 'shared' });
  expect(ex).toMatchObject({ state: 'active', process: 'shared' });
  expect(faulty.pid).toBe(ex.pid);
  expect(h.pids.size).toBe(1);
  // Each plugin's code runs in the one process and answers on its own channel.
  expect(Number(text(await h.service.registries.tools.execute('pid', {})))).toBe(faulty.pid);
  expect(text(await h.service.registries.tools.execute('example_greet', { name: 'Ann' }))).toBe('Hello, Ann!');
  expect(h.service.registries.tools.get('hang')?.pluginId).toBe('faulty');
  expect(h.service.registries.tools.get('example_greet')?.pluginId).toBe('example');
  expect(h.service.ledger.size('faulty')).toBeGreaterThan(0);
  expect(h.service.ledger.size('example')).toBeGreaterThan(0);
});

test('switching one plugin off in a shared host ends it alone; its neighbour keeps its process and serves', async () => {
  h = createHarness([fixture('faulty'), example()], shared);
  await h.service.start();
  const pid = h.service.get('example').pid!;
  const pong = h.nextEvent('faulty.pong');
  h.service.events.emit('test.ping', { n: 1 });
  await pong;
  expect(text(await h.service.registries.tools.execute('received', {}))).toBe('[{"n":1}]');
  const shutdown = h.nextEvent('faulty.shutdown');
  const off = await h.service.setState('faulty', false);
  await shutdown;
  expect(off).toMatchObject({ state: 'deactivated', pid: null, contributions: [] });
  expect(h.service.registries.tools.get('hang')).toBeUndefined();
  expect(h.service.ledger.size('faulty')).toBe(0);
  expect(isAlive(pid)).toBe(true);
  expect(h.service.get('example')).toMatchObject({ state: 'active', pid });
  expect(text(await h.service.registries.tools.execute('example_greet', { name: 'Bo' }))).toBe('Hello, Bo!');

  // Back on: it joins the same process, from fresh module state.
  const on = await h.service.setState('faulty', true);
  expect(on).toMatchObject({ state: 'active', pid });
  expect(text(await h.service.registries.tools.execute('received', {}))).toBe('[]');
});

test('the shared process ends with the last plugin in it', async () => {
  h = createHarness([fixture('faulty'), example()], shared);
  await h.service.start();
  const pid = h.service.get('example').pid!;
  await h.service.setState('faulty', false);
  expect(isAlive(pid)).toBe(true);
  await h.service.setState('example', false);
  const deadline = performance.now() + 5000;
  while (isAlive(pid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(isAlive(pid)).toBe(false);
});

test('a crash of the shared host fails each plugin in it with its own reason and crash count, and each restarts', async () => {
  h = createHarness([fixture('faulty'), example()], { ...shared, restartBackoffMs: 100 });
  await h.service.start();
  const pid = h.service.get('faulty').pid!;
  const inside = h.nextEvent('faulty.hanging');
  const call = h.service.registries.tools.execute('hang', {});
  await inside;
  const bothFailed = Promise.all([h.until('faulty', (i) => i.state === 'failed'), h.until('example', (i) => i.state === 'failed')]);
  process.kill(pid, 'SIGKILL');
  const out = await call;
  expect(out.isError).toBe(true);
  expect(text(out)).toMatch(/The plugin 'faulty' stopped: its process \(shared with other plugins\) was killed \(SIGKILL\)/);
  const [faulty, ex] = await bothFailed;
  for (const info of [faulty, ex]) {
    expect(info.reason).toMatch(/^The plugin's process \(shared with other plugins\) was killed \(SIGKILL\)\. Restarting in 100 ms\.$/);
    expect(info.recentCrashes).toBe(1);
    expect(info.contributions).toEqual([]);
  }
  expect(h.service.registries.tools.size).toBe(0);
  const [again, exAgain] = await Promise.all([h.until('faulty', (i) => i.state === 'active'), h.until('example', (i) => i.state === 'active')]);
  expect(again.pid).not.toBe(pid);
  expect(again.pid).toBe(exAgain.pid);
  expect(text(await h.service.registries.tools.execute('example_greet', { name: 'Cy' }))).toBe('Hello, Cy!');
});

test('a hanging initialize in a shared host fails that plugin alone; its neighbour stays Active in the same process', { retry: 1 }, async () => {
  h = createHarness([fixture('faulty'), example()], { ...shared, initializeTimeoutMs: 600 });
  h.config.set('faulty', { mode: 'hang-initialize' });
  await h.service.start();
  expect(h.service.get('faulty')).toMatchObject({ state: 'failed', reason: "The plugin 'faulty' did not answer $initialize within 600 ms.", pid: null });
  const ex = h.service.get('example');
  expect(ex.state).toBe('active');
  expect(isAlive(ex.pid!)).toBe(true);
  expect(text(await h.service.registries.tools.execute('example_greet', { name: 'Di' }))).toBe('Hello, Di!');
});

test('a hanging call in a shared host times out for that plugin only', async () => {
  h = createHarness([fixture('faulty'), example()], { ...shared, toolTimeoutMs: 300 });
  await h.service.start();
  const cancelled = h.nextEvent('faulty.cancelled');
  const out = await h.service.registries.tools.execute('hang', {});
  await cancelled;
  expect(out).toEqual({ content: [{ type: 'text', text: "The plugin 'faulty' did not answer $executeTool within 300 ms." }], isError: true });
  expect(h.service.get('faulty').state).toBe('active');
  expect(h.service.get('example').state).toBe('active');
});

test('a throwing tool and an invalid declaration in a shared host fail only their own plugin', async () => {
  h = createHarness([fixture('faulty', { id: 'thrower' }), fixture('faulty', { id: 'invalid' }), example()], shared);
  h.config.set('invalid', { mode: 'invalid' });
  await h.service.start();
  expect(h.service.get('invalid')).toMatchObject({
    state: 'failed',
    reason: "Invalid declaration capabilities[0] (tool 'bad name!'): name: a tool name is 1-64 letters, digits, _ or -",
    pid: null,
  });
  expect(await h.service.registries.tools.execute('explode', {})).toEqual({
    content: [{ type: 'text', text: "The tool 'explode' failed: the fixture tool exploded" }],
    isError: true,
  });
  expect(h.service.get('thrower').state).toBe('active');
  expect(h.service.get('example').state).toBe('active');
  expect(h.service.get('thrower').pid).toBe(h.service.get('example').pid);
});

test('a plugin in a shared host that ignores shutdown and blocks the event loop ends the host; its neighbour restarts, told why', async () => {
  h = createHarness([fixture('faulty'), example()], { ...shared, shutdownGraceMs: 300, restartBackoffMs: 100 });
  h.config.set('faulty', { mode: 'stubborn' });
  await h.service.start();
  const pid = h.service.get('faulty').pid!;
  const neighbourFailed = h.until('example', (i) => i.state === 'failed');
  const started = performance.now();
  const off = await h.service.setState('faulty', false);
  expect(off.state).toBe('deactivated');
  expect(performance.now() - started).toBeLessThan(3000);
  expect(isAlive(pid)).toBe(false);
  expect((await neighbourFailed).reason).toMatch(
    /^The plugin's process \(shared with other plugins\) was ended because the plugin 'faulty' did not stop in time\. Restarting in 100 ms\.$/,
  );
  const back = await h.until('example', (i) => i.state === 'active');
  expect(back.pid).not.toBe(pid);
  expect(back.recentCrashes).toBe(1);
});

const stallModel: ModelInfo = { id: 'stall-1', contextWindow: 1000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

test('a provider whose shared host dies mid-stream ends with one error event', async () => {
  h = createHarness([fixture('faulty'), example()], { ...shared, restartBackoffMs: 60_000 });
  await h.service.start();
  const events: ProviderEvent[] = [];
  for await (const event of h.service.registries.providers.stream('stall')!(
    { model: stallModel, systemPrompt: '', messages: [], tools: [] },
    new AbortController().signal,
  )) {
    events.push(event);
    if (event.type === 'start') process.kill(h.service.get('faulty').pid!, 'SIGKILL');
  }
  expect(events.map((e) => e.type)).toEqual(['start', 'error']);
  expect(events[1]).toMatchObject({ type: 'error', message: { stopReason: 'error', errorMessage: expect.stringMatching(/killed \(SIGKILL\)/) } });
});

test('a plugin flooding a shared host cannot stall main or its neighbour, and its unnamed raw lines reach no plugin', async () => {
  h = createHarness([fixture('faulty'), example()], { ...shared, inboundPerSecond: 2000 });
  await h.service.start();
  let heard = 0;
  // The fixture's raw lines name no plugin (a shared host's envelopes must): none may be delivered as its event.
  h.service.events.on('faulty.flood', () => heard++);
  const flood = h.service.registries.tools.execute('flood', { ms: 1200 });
  const started = performance.now();
  expect(text(await h.service.registries.tools.execute('example_greet', { name: 'Ed' }))).toBe('Hello, Ed!');
  expect(performance.now() - started).toBeLessThan(1000);
  const sent = Number(text(await flood));
  expect(sent).toBeGreaterThan(2000);
  expect(heard).toBe(0);
  expect(h.service.get('faulty').dropped.logs).toBeGreaterThan(0);
  expect(h.service.get('example').dropped.messages).toBe(0);
  expect(h.service.get('faulty').state).toBe('active');
  expect(h.service.get('example').state).toBe('active');
});

test('no shared host outlives the runtime, even with a plugin still activating', async () => {
  h = createHarness([fixture('faulty', { id: 'slow' }), fixture('faulty', { id: 'fine' }), example()], shared);
  h.config.set('slow', { mode: 'hang-initialize' });
  const starting = h.service.start();
  await h.until('fine', (i) => i.state === 'active');
  const pids = [...h.pids];
  expect(pids).toHaveLength(1);
  await h.service.dispose();
  await starting;
  expect(pids.filter(isAlive)).toEqual([]);
});

test('a user plugin runs in its own process unless the user groups it, and never with the bundled ones', async () => {
  const user = { ...fixture('faulty', { id: 'mine' }), source: 'user' as const };
  h = createHarness([user, example()], shared);
  h.store.setSetting('plugin.mine.confirmed', new Date().toISOString());
  await h.service.start();
  await h.service.setState('mine', true, { confirm: true });
  const own = h.service.get('mine');
  expect(own).toMatchObject({ state: 'active', process: 'own' });
  expect(own.pid).not.toBe(h.service.get('example').pid);
  const grouped = await h.service.setProcess('mine', 'shared');
  expect(grouped).toMatchObject({ state: 'active', process: 'shared' });
  expect(grouped.pid).not.toBe(own.pid);
  expect(grouped.pid).not.toBe(h.service.get('example').pid);
  await expect(h.service.setProcess('example', 'own')).rejects.toThrow(/ships with Amber/);
});
