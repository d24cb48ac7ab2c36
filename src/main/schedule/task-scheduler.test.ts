import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ScheduledRunEnded } from '../../shared/schedule/index.ts';
import { SessionStore } from '../sessions/index.ts';
import { ScheduledTaskStore, type StoredTask } from './scheduled-task-store.ts';
import { TaskScheduler } from './task-scheduler.ts';

// The scheduler on a real database file, with an injected clock and timer: the test moves time and fires the
// one armed timer itself; a run is a promise the test settles.

const MINUTE = 60_000;
let dir: string;
let file: string;
let sessions: SessionStore;
let stores: ScheduledTaskStore[];
let now: number;
let armed: { ms: number; fire: () => void; cancelled: boolean }[];
let started: { task: StoredTask; at: number; end: (error: string | null) => void }[];
let ended: ScheduledRunEnded[];

function open(): TaskScheduler {
  const store = ScheduledTaskStore.open(file);
  stores.push(store);
  return new TaskScheduler({
    store,
    clock: () => now,
    timer: (ms, onFire) => {
      const t = { ms, fire: onFire, cancelled: false };
      armed.push(t);
      return () => {
        t.cancelled = true;
      };
    },
    check: (input) => ({ projectId: null, folder: input.folder ?? '/nowhere', model: input.model ?? null, tools: input.tools }),
    startRun: (task, _runId, at) => {
      let end!: (error: string | null) => void;
      const done = new Promise<string | null>((resolve) => {
        end = resolve;
      });
      started.push({ task, at, end });
      return { sessionId: `session-${started.length}`, done };
    },
    notify: (e) => ended.push(e),
  });
}

/** The one live timer (asserting there is exactly one). */
function live() {
  const waiting = armed.filter((t) => !t.cancelled);
  expect(waiting).toHaveLength(1);
  return waiting[0]!;
}

/** Moves the clock to the live timer's moment and fires it. */
function fire(lateMs = 0) {
  const t = live();
  t.cancelled = true;
  now += t.ms + lateMs;
  t.fire();
}

const settle = () => new Promise((r) => setImmediate(r));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-scheduler-'));
  file = join(dir, 'amber.db');
  sessions = SessionStore.open(file);
  stores = [];
  now = Date.parse('2026-06-10T08:00:00Z');
  armed = [];
  started = [];
  ended = [];
});

afterEach(() => {
  for (const s of stores) s.close();
  sessions.close();
  rmSync(dir, { recursive: true, force: true });
});

test('one timer is armed for the nearest task; it fires a run, the run ends, and the next is armed', async () => {
  const scheduler = open();
  scheduler.start();
  expect(armed).toHaveLength(0);
  const slow = await scheduler.add({ name: 'slow', prompt: 'p', folder: '/w', schedule: 'FREQ=HOURLY;INTERVAL=2' });
  const fast = await scheduler.add({ name: 'fast', prompt: 'p', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=15', tools: ['read'] });
  expect(live().ms).toBe(15 * MINUTE);
  expect(slow.nextRunAt).toBe(now + 120 * MINUTE);

  fire();
  expect(started.map((s) => s.task.name)).toEqual(['fast']);
  expect(started[0]!.task.tools).toEqual(['read']);
  expect(scheduler.get(fast.id)).toMatchObject({ running: true, nextRunAt: now + 15 * MINUTE, runs: [{ state: 'running', sessionId: 'session-1' }] });
  expect(live().ms).toBe(15 * MINUTE);

  now += 42_000;
  started[0]!.end(null);
  await settle();
  expect(scheduler.get(fast.id)).toMatchObject({ running: false, runs: [{ state: 'done', sessionId: 'session-1', endedAt: now, error: null }] });
  expect(ended).toMatchObject([{ task: { name: 'fast' }, run: { state: 'done' } }]);
  const run = scheduler.get(fast.id).runs[0]!;
  expect(run.endedAt! - run.startedAt).toBe(42_000);
});

test('a run that fails says why; a task runs once at a time, and a due time during its run is counted as missed', async () => {
  const scheduler = open();
  scheduler.start();
  const task = await scheduler.add({ name: 'every minute', prompt: 'p', folder: '/w', schedule: 'FREQ=MINUTELY' });
  fire();
  expect(started).toHaveLength(1);
  expect(() => scheduler.runNow(task.id)).toThrow(/is running now/);
  fire();
  expect(started).toHaveLength(1);
  expect(scheduler.get(task.id).runs[0]).toMatchObject({ state: 'missed', missed: 1, error: 'Missed 1 run because the run before was still going.' });
  started[0]!.end('The model is not there.');
  await settle();
  expect(scheduler.get(task.id).runs.map((r) => r.state)).toEqual(['missed', 'failed']);
  expect(ended.at(-1)).toMatchObject({ run: { state: 'failed', error: 'The model is not there.' } });
  scheduler.runNow(task.id);
  expect(started).toHaveLength(2);
});

test('a timer that fires late (the computer slept) runs once and counts the rest as missed', async () => {
  const scheduler = open();
  scheduler.start();
  const task = await scheduler.add({ name: 't', prompt: 'p', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=10' });
  fire(35 * MINUTE);
  expect(started).toHaveLength(1);
  expect(scheduler.get(task.id).runs.find((r) => r.state === 'missed')).toMatchObject({ missed: 3 });
  expect(scheduler.get(task.id).nextRunAt).toBe(now + 5 * MINUTE);
});

test('after a restart, the runs missed while Amber was closed are counted once, not run; a run cut by the close failed', async () => {
  const first = open();
  first.start();
  const task = await first.add({ name: 'daily', prompt: 'p', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=30' });
  fire();
  expect(started).toHaveLength(1);
  first.dispose();

  // Closed for 100 minutes past the next due time: due at +30, +60, +90 (and +120 counts if reached).
  now += 100 * MINUTE;
  armed = [];
  const second = open();
  second.start();
  expect(started).toHaveLength(1);
  const runs = second.get(task.id).runs;
  expect(runs.find((r) => r.state === 'missed')).toMatchObject({ missed: 3, error: 'Missed 3 runs while Amber was closed.' });
  expect(runs.find((r) => r.sessionId === 'session-1')).toMatchObject({ state: 'failed', error: 'Amber closed while this run was going.' });
  expect(live().ms).toBe(20 * MINUTE);
  // The batch is told once: to the first window that asks, not again on a reload or reconnect.
  expect(second.takeMissedNotice()).toEqual({ at: now, tasks: [{ id: task.id, name: 'daily', missed: 3 }] });
  expect(second.takeMissedNotice()).toBeNull();
  second.dispose();

  // A start that missed nothing has nothing to tell.
  armed = [];
  const third = open();
  third.start();
  expect(third.takeMissedNotice()).toBeNull();
});

test('editing a task keeps it paused or not, keeps its runs and its anchor unless the schedule changed, and re-arms the timer', async () => {
  const scheduler = open();
  scheduler.start();
  const task = await scheduler.add({ name: 't', prompt: 'p', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=30' });
  expect(live().ms).toBe(30 * MINUTE);
  now += 10 * MINUTE;
  const renamed = await scheduler.update(task.id, { name: 'renamed', prompt: 'q', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=30', tools: ['read'] });
  expect(renamed).toMatchObject({ name: 'renamed', prompt: 'q', tools: ['read'], anchor: task.anchor, nextRunAt: task.nextRunAt, paused: false });
  expect(live().ms).toBe(20 * MINUTE);
  // A new schedule counts from the change.
  const every5 = await scheduler.update(task.id, { name: 'renamed', prompt: 'q', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=5' });
  expect(every5).toMatchObject({ anchor: now, nextRunAt: now + 5 * MINUTE });
  expect(live().ms).toBe(5 * MINUTE);
  scheduler.setPaused(task.id, true);
  const stillPaused = await scheduler.update(task.id, { name: 'renamed', prompt: 'q', folder: '/w', schedule: 'FREQ=HOURLY;INTERVAL=1' });
  expect(stillPaused).toMatchObject({ paused: true, nextRunAt: null, when: 'every hour' });
  expect(armed.filter((t) => !t.cancelled)).toHaveLength(0);
  await expect(scheduler.update('nope', { name: 'x', prompt: 'q', folder: '/w', schedule: 'FREQ=HOURLY' })).rejects.toThrow(/no scheduled task/);
});

test('pausing disarms the task, resuming counts from now, deleting forgets it and its runs', async () => {
  const scheduler = open();
  scheduler.start();
  const task = await scheduler.add({ name: 't', prompt: 'p', folder: '/w', schedule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0' });
  live();
  expect(scheduler.setPaused(task.id, true)).toMatchObject({ paused: true, nextRunAt: null });
  expect(armed.filter((t) => !t.cancelled)).toHaveLength(0);
  now += 3 * 24 * 60 * MINUTE;
  expect(scheduler.setPaused(task.id, false).nextRunAt).toBeGreaterThan(now);
  expect(scheduler.get(task.id).runs).toEqual([]);
  live();
  scheduler.runNow(task.id);
  scheduler.delete(task.id);
  expect(scheduler.list()).toEqual([]);
  expect(() => scheduler.get(task.id)).toThrow(/no scheduled task/);
  expect(armed.filter((t) => !t.cancelled)).toHaveLength(0);
  // The run going when its task was deleted ends quietly.
  started[0]!.end(null);
  await settle();
});

test('a task that is not valid is refused before it is stored', async () => {
  const scheduler = open();
  await expect(scheduler.add({ name: 't', prompt: 'p', folder: '/w', schedule: 'every day' })).rejects.toThrow(/not a part of a schedule/);
  await expect(scheduler.add({ name: 't', prompt: 'x'.repeat(20_001), folder: '/w', schedule: 'FREQ=HOURLY' })).rejects.toThrow();
  await expect(scheduler.add({ name: 't', prompt: 'p', schedule: 'FREQ=HOURLY' })).rejects.toThrow(/either a project or a folder/);
  expect(scheduler.list()).toEqual([]);
});

test('a task whose stored schedule or tool list another program broke never runs nor stops the others; the list says so', async () => {
  const store = ScheduledTaskStore.open(file);
  stores.push(store);
  store.put({
    id: 'broken',
    name: 'broken',
    prompt: 'p',
    projectId: null,
    folder: '/w',
    model: null,
    schedule: 'FREQ=SOMETIMES',
    tools: ['read'],
    paused: false,
    createdAt: now - 10 * MINUTE,
    anchor: now - 10 * MINUTE,
    nextRunAt: now - MINUTE,
  });
  const scheduler = open();
  const ok = await scheduler.add({ name: 'ok', prompt: 'p', folder: '/w', schedule: 'FREQ=MINUTELY;INTERVAL=5' });
  scheduler.start();
  expect(live().ms).toBe(5 * MINUTE);
  expect(scheduler.get('broken')).toMatchObject({ nextRunAt: null, when: expect.stringMatching(/^Its schedule \(FREQ=SOMETIMES\) cannot be read/) });
  fire();
  expect(started.map((s) => s.task.id)).toEqual([ok.id]);
  expect(scheduler.get('broken').runs).toEqual([]);
  // A tool list that is not a list of names allows nothing.
  const db = new Database(file);
  db.prepare(`UPDATE scheduled_tasks SET tools = ? WHERE id = ?`).run('{"all":true}', ok.id);
  db.close();
  expect(scheduler.get(ok.id).tools).toEqual([]);
});
