import { randomUUID } from 'node:crypto';
import {
  countRuns,
  describeSchedule,
  KEPT_RUNS,
  nextRun,
  parseSchedule,
  type Schedule,
  type ScheduledRun,
  type ScheduledRunEnded,
  type ScheduledTaskFields,
  ScheduledTaskInput,
  type MissedRunsNotice,
  type ScheduledTask,
} from '../../shared/schedule/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { AmberError, errorMessage } from '../errors.ts';
import type { StoredTask } from './scheduled-task-store.ts';

/** The store the scheduler keeps its tasks and runs in (the sessions file's `ScheduledTaskStore`). */
export interface TaskStore {
  list(): StoredTask[];
  get(id: string): StoredTask | null;
  put(task: StoredTask): void;
  setNextRun(id: string, nextRunAt: number | null): void;
  delete(id: string): boolean;
  runs(taskId: string, limit: number): ScheduledRun[];
  addRun(run: ScheduledRun, keep: number): void;
  endRun(id: string, state: ScheduledRun['state'], endedAt: number, error: string | null): void;
  endInterrupted(endedAt: number, error: string): number;
}

/** A run as started: its conversation at once, and its end (null: done; else why it failed). Never rejects. */
export interface StartedTaskRun {
  sessionId: string;
  done: Promise<string | null>;
}

export interface TaskSchedulerOptions {
  store: TaskStore;
  /** Starts a run of the task in a new conversation; throws (a typed error) when it cannot start at all. */
  startRun(task: StoredTask, runId: string, at: number): StartedTaskRun;
  /** Checks what the user gave (folder, model, tools) and returns it as stored; throws a sentence when refused. */
  check(
    input: ScheduledTaskFields,
  ): Promise<Pick<StoredTask, 'projectId' | 'folder' | 'model' | 'tools'>> | Pick<StoredTask, 'projectId' | 'folder' | 'model' | 'tools'>;
  clock?: () => number;
  /** Arms the one timer; returns how to cancel it. Default: an unref'd setTimeout (it never keeps a process alive). */
  timer?: (ms: number, fire: () => void) => () => void;
  newId?: () => string;
  /** Where a task's runs work now (a project's folder may have moved). Default: the folder stored with it. */
  folderOf?: (task: StoredTask) => string | null;
  /** Told when a run ends or fails (the desktop shell shows a system notification). */
  notify?: (ended: ScheduledRunEnded) => void;
}

/** The task's schedule, or null when its stored text cannot be read (changed by another program): such a task never runs. */
function readable(task: StoredTask): Schedule | null {
  try {
    return parseSchedule(task.schedule);
  } catch {
    return null;
  }
}

/** setTimeout's longest delay; a task further off re-arms when this one fires. */
const MAX_DELAY_MS = 2_147_483_647;

const defaultTimer = (ms: number, fire: () => void): (() => void) => {
  const t = setTimeout(fire, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

/**
 * The scheduled tasks and the one timer that runs them while Amber runs. The timer is armed for the nearest due
 * task and re-armed on every change (no polling). A task runs once at a time: a due time that comes while its last
 * run is still going is counted as missed. Runs Amber could not make (it was closed, the computer slept) are
 * counted and recorded as one "missed" run, never replayed in a burst. The owner of the tasks: it announces
 * every change (`onDidChange`) and every run's end (`onDidEndRun`).
 */
export class TaskScheduler implements Disposable {
  readonly #store: TaskStore;
  readonly #options: TaskSchedulerOptions;
  readonly #clock: () => number;
  readonly #timer: (ms: number, fire: () => void) => () => void;
  readonly #newId: () => string;
  /** Task id → the run going now. */
  readonly #running = new Map<string, { runId: string; sessionId: string }>();
  readonly #changed = new Emitter<ScheduledTask[]>((e) => console.error('A scheduled task listener failed', e));
  readonly #ended = new Emitter<ScheduledRunEnded>((e) => console.error('A scheduled run listener failed', e));
  #cancel: (() => void) | null = null;
  /** The runs each task missed while Amber was closed, counted at start: told to the first window that asks. */
  #missedAtStart: MissedRunsNotice | null = null;
  #started = false;
  #disposed = false;

  /** The tasks changed (added, paused, deleted, a run started or ended), with the whole list. */
  readonly onDidChange: Event<ScheduledTask[]> = this.#changed.event;
  /** A run ended, done or failed. */
  readonly onDidEndRun: Event<ScheduledRunEnded> = this.#ended.event;

  constructor(options: TaskSchedulerOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#clock = options.clock ?? Date.now;
    this.#timer = options.timer ?? defaultTimer;
    this.#newId = options.newId ?? randomUUID;
  }

  /**
   * Starts scheduling: runs left going by an Amber that closed are ended as failed, the runs each task missed
   * meanwhile are counted (one "missed" record each), and the timer is armed for the nearest task.
   */
  start(): void {
    if (this.#started || this.#disposed) return;
    this.#started = true;
    const now = this.#clock();
    this.#store.endInterrupted(now, 'Amber closed while this run was going.');
    for (const task of this.#store.list()) {
      const schedule = readable(task);
      if (task.paused || task.nextRunAt === null || task.nextRunAt > now || !schedule) continue;
      const count = countRuns(schedule, task.nextRunAt, now, task.anchor);
      this.#missed(task, count, now, 'while Amber was closed');
      if (count > 0) {
        this.#missedAtStart ??= { at: now, tasks: [] };
        this.#missedAtStart.tasks.push({ id: task.id, name: task.name, missed: count });
      }
      this.#store.setNextRun(task.id, nextRun(schedule, now, task.anchor));
    }
    this.#arm();
    this.#announce();
  }

  list(): ScheduledTask[] {
    return this.#store.list().map((t) => this.#view(t));
  }

  get(id: string): ScheduledTask {
    return this.#view(this.#task(id));
  }

  async add(input: ScheduledTaskInput): Promise<ScheduledTask> {
    const parsed = ScheduledTaskInput.parse(input);
    const checked = await this.#options.check(parsed);
    const now = this.#clock();
    const task: StoredTask = {
      id: this.#newId(),
      name: parsed.name,
      prompt: parsed.prompt,
      ...checked,
      schedule: parsed.schedule,
      paused: false,
      createdAt: now,
      anchor: now,
      nextRunAt: nextRun(parseSchedule(parsed.schedule), now, now),
    };
    this.#store.put(task);
    this.#arm();
    this.#announce();
    return this.#view(task);
  }

  /**
   * Changes a task's fields (name, prompt, project or folder, model, schedule, tools), checked as when it was added.
   * Paused stays paused; its runs stay. A changed schedule counts from now; the next run is worked out again either
   * way. A run going now finishes as it began.
   */
  async update(id: string, input: ScheduledTaskInput): Promise<ScheduledTask> {
    this.#task(id);
    const parsed = ScheduledTaskInput.parse(input);
    const checked = await this.#options.check(parsed);
    // Read again after the check: the task may have been paused, resumed or deleted meanwhile.
    const task = this.#task(id);
    const now = this.#clock();
    const anchor = parsed.schedule === task.schedule ? task.anchor : now;
    const next: StoredTask = {
      ...task,
      name: parsed.name,
      prompt: parsed.prompt,
      ...checked,
      schedule: parsed.schedule,
      anchor,
      nextRunAt: task.paused ? null : nextRun(parseSchedule(parsed.schedule), now, anchor),
    };
    this.#store.put(next);
    this.#arm();
    this.#announce();
    return this.#view(next);
  }

  /**
   * The runs missed while Amber was closed, counted when it started: given once, to the first window that asks
   * (later asks, a reload or another window, get null), so the person hears of each batch once.
   */
  takeMissedNotice(): MissedRunsNotice | null {
    const notice = this.#missedAtStart;
    this.#missedAtStart = null;
    return notice;
  }

  /** Pausing keeps the task and its runs but never runs it; resuming counts from now (what was skipped is not missed). */
  setPaused(id: string, paused: boolean): ScheduledTask {
    const task = this.#task(id);
    if (task.paused === paused) return this.#view(task);
    const now = this.#clock();
    const next: StoredTask = { ...task, paused, nextRunAt: paused ? null : nextRun(parseSchedule(task.schedule), now, task.anchor) };
    this.#store.put(next);
    this.#arm();
    this.#announce();
    return this.#view(next);
  }

  /** Deletes the task and its list of runs; a run going now finishes, and every run's conversation stays. */
  delete(id: string): void {
    this.#task(id);
    this.#store.delete(id);
    this.#arm();
    this.#announce();
  }

  /** Runs the task now (its schedule is unchanged). `conflict` while a run of it is going. */
  runNow(id: string): ScheduledRun {
    const task = this.#task(id);
    if (this.#running.has(id)) throw new AmberError('conflict', `“${task.name}” is running now; wait for this run to end.`);
    const run = this.#launch(task, this.#clock());
    this.#announce();
    return run;
  }

  isRunning(taskId: string): boolean {
    return this.#running.has(taskId);
  }

  dispose(): void {
    this.#disposed = true;
    this.#cancel?.();
    this.#cancel = null;
    this.#changed.dispose();
    this.#ended.dispose();
  }

  #task(id: string): StoredTask {
    const task = this.#store.get(id);
    if (!task) throw new AmberError('not_found', 'There is no scheduled task with that id (it may have been deleted).');
    return task;
  }

  #view(task: StoredTask): ScheduledTask {
    const schedule = readable(task);
    return {
      id: task.id,
      name: task.name,
      prompt: task.prompt,
      project: task.projectId,
      folder: this.#options.folderOf?.(task) ?? task.folder,
      model: task.model,
      schedule: task.schedule,
      when: schedule ? describeSchedule(schedule) : `Its schedule (${task.schedule.slice(0, 60)}) cannot be read: delete the task and add it again.`,
      tools: task.tools,
      paused: task.paused,
      createdAt: task.createdAt,
      anchor: task.anchor,
      nextRunAt: task.paused || !schedule ? null : task.nextRunAt,
      running: this.#running.has(task.id),
      runs: this.#store.runs(task.id, KEPT_RUNS),
    };
  }

  #announce(): void {
    if (!this.#disposed) this.#changed.fire(this.list());
  }

  #missed(task: StoredTask, count: number, now: number, why: string): void {
    if (count <= 0) return;
    this.#store.addRun(
      {
        id: this.#newId(),
        taskId: task.id,
        sessionId: null,
        state: 'missed',
        startedAt: now,
        endedAt: now,
        error: `Missed ${count.toLocaleString('en')} run${count === 1 ? '' : 's'} ${why}.`,
        missed: count,
      },
      KEPT_RUNS,
    );
  }

  /** One timer, for the nearest due task (none when no task is due). */
  #arm(): void {
    this.#cancel?.();
    this.#cancel = null;
    if (!this.#started || this.#disposed) return;
    let nearest: number | null = null;
    for (const task of this.#store.list())
      if (!task.paused && task.nextRunAt !== null && readable(task) && (nearest === null || task.nextRunAt < nearest)) nearest = task.nextRunAt;
    if (nearest === null) return;
    this.#cancel = this.#timer(Math.min(MAX_DELAY_MS, Math.max(0, nearest - this.#clock())), () => this.#fire());
  }

  #fire(): void {
    this.#cancel = null;
    if (this.#disposed) return;
    // A timer callback must not throw (it would take the process down): a failure is logged; the next change arms the timer again.
    try {
      const now = this.#clock();
      for (const task of this.#store.list()) {
        const schedule = readable(task);
        if (task.paused || task.nextRunAt === null || task.nextRunAt > now || !schedule) continue;
        // Due times passed while the process could not run its timer (the computer slept) are missed, not replayed.
        const due = countRuns(schedule, task.nextRunAt, now, task.anchor);
        this.#store.setNextRun(task.id, nextRun(schedule, now, task.anchor));
        this.#missed(task, due - 1, now, 'while Amber could not run them (the computer slept or was busy)');
        if (this.#running.has(task.id)) this.#missed(task, 1, now, 'because the run before was still going');
        else this.#launch(task, task.nextRunAt);
      }
      this.#arm();
      this.#announce();
    } catch (e) {
      console.error('The scheduled tasks could not be started', e);
    }
  }

  #launch(task: StoredTask, at: number): ScheduledRun {
    const runId = this.#newId();
    const startedAt = this.#clock();
    let started: StartedTaskRun;
    try {
      started = this.#options.startRun(task, runId, at);
    } catch (e) {
      const failed: ScheduledRun = {
        id: runId,
        taskId: task.id,
        sessionId: null,
        state: 'failed',
        startedAt,
        endedAt: startedAt,
        error: errorMessage(e),
        missed: 0,
      };
      this.#store.addRun(failed, KEPT_RUNS);
      this.#end(task, failed);
      return failed;
    }
    const run: ScheduledRun = { id: runId, taskId: task.id, sessionId: started.sessionId, state: 'running', startedAt, endedAt: null, error: null, missed: 0 };
    this.#store.addRun(run, KEPT_RUNS);
    this.#running.set(task.id, { runId, sessionId: started.sessionId });
    void started.done.then((error) => {
      this.#running.delete(task.id);
      if (this.#disposed) return;
      const ended: ScheduledRun = { ...run, state: error === null ? 'done' : 'failed', endedAt: this.#clock(), error };
      try {
        this.#store.endRun(runId, ended.state, ended.endedAt!, error);
        this.#end(task, ended);
        this.#announce();
      } catch (e) {
        console.error('A scheduled run’s end could not be recorded', e);
      }
    });
    return run;
  }

  #end(task: StoredTask, run: ScheduledRun): void {
    const ended = { task: { id: task.id, name: task.name }, run };
    this.#ended.fire(ended);
    try {
      this.#options.notify?.(ended);
    } catch (e) {
      console.error('A scheduled run notification failed', e);
    }
  }
}
