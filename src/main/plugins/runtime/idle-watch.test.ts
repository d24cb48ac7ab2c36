import { expect, test } from 'vitest';
import type { PluginCaller } from './contribution-installer.ts';
import { type IdleTimers, watchIdle } from './idle-watch.ts';

/** A caller whose calls settle when the test says so. */
function manualCaller() {
  const pending: (() => void)[] = [];
  const caller = { call: () => new Promise<void>((resolve) => pending.push(resolve)) } as unknown as PluginCaller;
  return { caller, settleAll: () => pending.splice(0).forEach((settle) => settle()) };
}

/** Timers on a clock the test moves: `advance(ms)` runs what falls due. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: IdleTimers = {
    set: (fn, ms) => {
      const handle = next++;
      due.set(handle, { at: now + ms, fn });
      return handle;
    },
    clear: (handle) => void due.delete(handle as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [handle, t] of Array.from(due.entries())) {
      if (t.at > now) continue;
      due.delete(handle);
      t.fn();
    }
  };
  return { timers, advance, pending: () => due.size };
}

test('idle fires once the idle time passes after the last call settles, never while a call runs', async () => {
  const { caller, settleAll } = manualCaller();
  const clock = manualTimers();
  let fired = 0;
  const watch = watchIdle(caller, 50, () => fired++, clock.timers);
  watch.arm();
  const call = watch.caller.call('$tick', [], 0);
  clock.advance(500);
  expect(fired).toBe(0);
  expect(watch.idle).toBe(false);
  settleAll();
  await call;
  clock.advance(49);
  expect(fired).toBe(0);
  clock.advance(1);
  expect(fired).toBe(1);
  expect(watch.idle).toBe(true);
  void watch.caller.call('$tick', [], 0);
  expect(watch.idle).toBe(false);
  watch.dispose();
  settleAll();
});

test('a call restarts the idle time, and nothing is counted before the watch is armed', async () => {
  const { caller, settleAll } = manualCaller();
  const clock = manualTimers();
  let fired = 0;
  const watch = watchIdle(caller, 50, () => fired++, clock.timers);
  const early = watch.caller.call('$tick', [], 0);
  settleAll();
  await early;
  expect(clock.pending()).toBe(0);
  watch.arm();
  clock.advance(40);
  const call = watch.caller.call('$tick', [], 0);
  settleAll();
  await call;
  clock.advance(40);
  expect(fired).toBe(0);
  clock.advance(10);
  expect(fired).toBe(1);
});

test('a disposed watch never fires and is never idle', () => {
  const { caller } = manualCaller();
  const clock = manualTimers();
  let fired = false;
  const watch = watchIdle(caller, 10, () => (fired = true), clock.timers);
  watch.arm();
  watch.dispose();
  clock.advance(100);
  expect(fired).toBe(false);
  expect(watch.idle).toBe(false);
});
