import { afterEach, expect, test } from 'vitest';
import type { ModelInfo, ProviderEvent } from '../../src/shared/providers/provider-stream.ts';
import { createHarness, example, fixture, type Harness, isAlive } from './plugin-harness.ts';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** Starts a tool call in the fixture and resolves once the plugin is inside it. */
async function hangingCall(harness: Harness, signal?: AbortSignal) {
  const inside = harness.nextEvent('faulty.hanging');
  const call = harness.service.registries.tools.execute('hang', {}, signal);
  await inside;
  return { call };
}

test('SIGKILL in the middle of a tool call: the call settles within 1 s, the plugin is unwound and Failed, the app keeps serving, and it restarts with backoff at most 3 times in 5 minutes', async () => {
  h = createHarness([fixture('faulty'), example()], { restartBackoffMs: 150 });
  await h.service.start();
  const firstPid = h.service.get('faulty').pid!;
  // When each state began, to check the wait between a crash and the restart.
  const timeline: { state: string; at: number }[] = [];
  h.service.onDidChange((info) => {
    if (info.id === 'faulty') timeline.push({ state: info.state, at: performance.now() });
  });
  const restartDelays = () => timeline.flatMap((t, i) => (t.state === 'activating' && timeline[i - 1]?.state === 'failed' ? [t.at - timeline[i - 1]!.at] : []));

  const { call } = await hangingCall(h);
  const failed = h.until('faulty', (i) => i.state === 'failed');
  const killedAt = performance.now();
  process.kill(firstPid, 'SIGKILL');
  const out = await call;
  expect(performance.now() - killedAt).toBeLessThan(1000);
  expect(out.isError).toBe(true);
  expect(out.content[0]!.text).toMatch(/The plugin 'faulty' stopped: its process was killed \(SIGKILL\)/);

  const info = await failed;
  expect(info.reason).toMatch(/killed \(SIGKILL\)\. Restarting in 150 ms/);
  expect(info.contributions).toEqual([]);
  expect(h.service.registries.tools.get('hang')).toBeUndefined();
  expect(h.service.ledger.size('faulty')).toBe(0);
  // Later calls fail at once, and the other plugin keeps serving.
  expect((await h.service.registries.tools.execute('hang', {})).isError).toBe(true);
  expect((await h.service.registries.tools.execute('example_greet', { name: 'Cy' })).content[0]!.text).toBe('Hello, Cy!');

  // Restart 1 after 150 ms, restart 2 after 300 ms (the backoff doubles), then the third crash sticks.
  const second = await h.until('faulty', (i) => i.state === 'active');
  expect(restartDelays()).toHaveLength(1);
  expect(restartDelays()[0]).toBeGreaterThanOrEqual(145);
  expect(second.pid).not.toBe(firstPid);
  expect(isAlive(firstPid)).toBe(false);

  process.kill(second.pid!, 'SIGKILL');
  await h.until('faulty', (i) => i.state === 'failed');
  const third = await h.until('faulty', (i) => i.state === 'active');
  expect(restartDelays()).toHaveLength(2);
  expect(restartDelays()[1]).toBeGreaterThanOrEqual(295);

  process.kill(third.pid!, 'SIGKILL');
  const stuck = await h.until('faulty', (i) => i.state === 'failed');
  expect(stuck.reason).toMatch(/crashed 3 times in 5 minutes, so it stays off until you enable it again/);
  expect(stuck.recentCrashes).toBe(3);
  expect(timeline.at(-1)!.state).toBe('failed');

  // Enabling it again is the way back.
  const back = await h.service.setState('faulty', true);
  expect(back).toMatchObject({ state: 'active', recentCrashes: 0 });
});

// Its 400 ms budget is also the time a loaded machine may take to start the process: one retry.
test('a hanging initialize times out and the plugin is Failed, its process ended', { retry: 1 }, async () => {
  h = createHarness([fixture('faulty')], { initializeTimeoutMs: 400 });
  h.config.set('faulty', { mode: 'hang-initialize' });
  await h.service.start();
  expect(h.service.get('faulty')).toMatchObject({ state: 'failed', reason: "The plugin 'faulty' did not answer $initialize within 400 ms.", pid: null });
  expect([...h.pids].filter(isAlive)).toEqual([]);
});

test('a hanging call times out with a clear error and the plugin stays Active', async () => {
  h = createHarness([fixture('faulty')], { toolTimeoutMs: 300 });
  await h.service.start();
  const cancelled = h.nextEvent('faulty.cancelled');
  const out = await h.service.registries.tools.execute('hang', {});
  // The plugin is told to stop the call it can no longer answer.
  await cancelled;
  expect(out).toEqual({ content: [{ type: 'text', text: "The plugin 'faulty' did not answer $executeTool within 300 ms." }], isError: true });
  expect(h.service.get('faulty').state).toBe('active');
});

test('an aborted call settles at once and the plugin is told to cancel', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  const controller = new AbortController();
  const { call } = await hangingCall(h, controller.signal);
  const cancelled = h.nextEvent('faulty.cancelled');
  controller.abort();
  expect(await call).toEqual({ content: [{ type: 'text', text: "The call to 'hang' was aborted." }], isError: true });
  await cancelled;
  expect(h.service.get('faulty').state).toBe('active');
});

test('a throwing tool gives an error result and the plugin stays Active', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  expect(await h.service.registries.tools.execute('explode', {})).toEqual({
    content: [{ type: 'text', text: "The tool 'explode' failed: the fixture tool exploded" }],
    isError: true,
  });
  expect(h.service.get('faulty').state).toBe('active');
  expect(Number((await h.service.registries.tools.execute('pid', {})).content[0]!.text)).toBe(h.service.get('faulty').pid);
});

test('an invalid declaration fails the plugin with the validation message naming the field', async () => {
  h = createHarness([fixture('faulty')]);
  h.config.set('faulty', { mode: 'invalid' });
  await h.service.start();
  const info = h.service.get('faulty');
  expect(info.state).toBe('failed');
  expect(info.reason).toBe("Invalid declaration capabilities[0] (tool 'bad name!'): name: a tool name is 1-64 letters, digits, _ or -");
  expect(h.service.registries.tools.size).toBe(0);
  expect(info.pid).toBeNull();
});

test('a plugin flooding its pipe, its log and its stdout cannot stall main', async () => {
  h = createHarness([fixture('faulty'), example()], { inboundPerSecond: 2000 });
  await h.service.start();
  let worstLag = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worstLag = Math.max(worstLag, now - last - 10);
    last = now;
  }, 10);
  try {
    const flood = h.service.registries.tools.execute('flood', { ms: 1500 });
    await h.nextEvent('faulty.flood');
    // While the flood runs, another plugin answers promptly.
    const started = performance.now();
    expect((await h.service.registries.tools.execute('example_greet', { name: 'Di' })).isError).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    const sent = Number((await flood).content[0]!.text);
    const info = h.service.get('faulty');
    expect(sent).toBeGreaterThan(2000);
    expect(info.dropped.messages).toBeGreaterThan(0);
    expect(info.dropped.logs).toBeGreaterThan(0);
    expect(h.service.logs('faulty').length).toBeLessThanOrEqual(500);
  } finally {
    clearInterval(probe);
  }
  expect(worstLag).toBeLessThan(500);
  expect(h.service.get('faulty').state).toBe('active');
});

test('a plugin that logs in a burst loses the excess, with a count, and its log keeps working', async () => {
  let markerSeen: (() => void) | null = null;
  const marker = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  h = createHarness([fixture('faulty')], {
    onLog: (_id, line) => {
      if (line.message === 'after the burst') markerSeen?.();
    },
  });
  await h.service.start();
  expect(await h.service.registries.tools.execute('chatter', { lines: 20_000, marker: 'after the burst' })).toMatchObject({ isError: false });
  await marker;
  const info = h.service.get('faulty');
  expect(info.dropped.logs).toBeGreaterThan(0);
  expect(info.dropped.messages).toBe(0);
});

test('disable calls shutdown, then the process exits', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  const pid = h.service.get('faulty').pid!;
  const shutdown = h.nextEvent('faulty.shutdown');
  const off = await h.service.setState('faulty', false);
  expect(await shutdown).toEqual({ pid });
  expect(off.state).toBe('deactivated');
  expect(isAlive(pid)).toBe(false);
});

test('a plugin that ignores shutdown and blocks its event loop is killed after the grace period', async () => {
  h = createHarness([fixture('faulty')], { shutdownGraceMs: 300 });
  h.config.set('faulty', { mode: 'stubborn' });
  await h.service.start();
  const pid = h.service.get('faulty').pid!;
  const started = performance.now();
  await h.service.setState('faulty', false);
  expect(isAlive(pid)).toBe(false);
  expect(performance.now() - started).toBeLessThan(3000);
});

test('no plugin process outlives the runtime, even one still activating', async () => {
  h = createHarness([fixture('faulty', { id: 'slow' }), fixture('faulty', { id: 'fine' }), example()]);
  h.config.set('slow', { mode: 'hang-initialize' });
  const starting = h.service.start();
  await h.until('fine', (i) => i.state === 'active');
  const pids = [...h.pids];
  expect(pids).toHaveLength(3);
  expect(pids.every(isAlive)).toBe(true);
  await h.service.dispose();
  await starting;
  expect(pids.filter(isAlive)).toEqual([]);
});

const stallModel: ModelInfo = { id: 'stall-1', contextWindow: 1000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

test('a provider whose plugin dies mid-stream ends with one error event instead of throwing', async () => {
  h = createHarness([fixture('faulty')], { restartBackoffMs: 60_000 });
  await h.service.start();
  const stream = h.service.registries.providers.stream('stall')!;
  const events: ProviderEvent[] = [];
  let killedAt = 0;
  for await (const event of stream({ model: stallModel, systemPrompt: '', messages: [], tools: [] }, new AbortController().signal)) {
    events.push(event);
    if (event.type === 'start') {
      killedAt = performance.now();
      process.kill(h.service.get('faulty').pid!, 'SIGKILL');
    }
  }
  expect(performance.now() - killedAt).toBeLessThan(1000);
  expect(events.map((e) => e.type)).toEqual(['start', 'error']);
  expect(events[1]).toMatchObject({ type: 'error', message: { stopReason: 'error', errorMessage: expect.stringMatching(/killed \(SIGKILL\)/) } });
});

test('an aborted provider stream ends at once with an aborted error', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  const controller = new AbortController();
  const events: ProviderEvent[] = [];
  for await (const event of h.service.registries.providers.stream('stall')!(
    { model: stallModel, systemPrompt: '', messages: [], tools: [] },
    controller.signal,
  )) {
    events.push(event);
    if (event.type === 'start') controller.abort();
  }
  expect(events.map((e) => e.type)).toEqual(['start', 'error']);
  expect(events[1]).toMatchObject({ kind: 'aborted', message: { stopReason: 'aborted' } });
  expect(h.service.get('faulty').state).toBe('active');
});

test('when the app is killed outright, its plugin processes end too', async () => {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'amber-orphans-'));
  const app = spawn(process.execPath, [join(import.meta.dirname, '../fixtures/plugins/app-runner.ts'), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  try {
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = '';
      app.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
      app.once('exit', (code) => reject(new Error(`The app exited early with code ${code}.`)));
    });
    expect(pids).toHaveLength(2);
    expect(pids.every((pid) => isAlive(pid))).toBe(true);
    const exited = new Promise((resolve) => app.once('exit', resolve));
    app.kill('SIGKILL');
    await exited;
    // The plugins notice their pipe closing; there is no event for another process's exit, so poll briefly.
    const deadline = performance.now() + 5000;
    while (pids.some(isAlive) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(pids.filter(isAlive)).toEqual([]);
  } finally {
    if (app.exitCode === null && app.signalCode === null) app.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
