import Database from 'better-sqlite3';
import { z } from 'zod';
import { ScheduledRun, type ScheduledRunState } from '../../shared/schedule/index.ts';

/** A task's row as stored (its schedule text already in its one spelling). */
export interface StoredTask {
  id: string;
  name: string;
  prompt: string;
  /** The project the runs start in (null: a plain folder). */
  projectId: string | null;
  folder: string;
  model: string | null;
  schedule: string;
  tools: string[];
  paused: boolean;
  createdAt: number;
  anchor: number;
  nextRunAt: number | null;
}

const Tools = z.array(z.string());

interface TaskRow {
  id: string;
  name: string;
  prompt: string;
  project_id: string | null;
  folder: string;
  model: string | null;
  schedule: string;
  tools: string;
  paused: number;
  created_at: number;
  anchor: number;
  next_run_at: number | null;
}

interface RunRow {
  id: string;
  task_id: string;
  session_id: string | null;
  state: string;
  started_at: number;
  ended_at: number | null;
  error: string | null;
  missed: number;
}

/**
 * The scheduled tasks and their runs, in main's database file beside the sessions (SQL only: the scheduler
 * decides). It opens a connection of its own to the file the session store opened and migrated. Rows are
 * checked on read: a tool list that does not parse reads as none (it allows nothing), and a run that does not parse throws.
 */
export class ScheduledTaskStore {
  readonly #db: Database.Database;
  readonly #q: ReturnType<typeof prepare>;

  /** Opens the database the session store has migrated (its tables must be there). */
  static open(file: string, options: { busyTimeoutMs?: number } = {}): ScheduledTaskStore {
    const db = new Database(file, { fileMustExist: file !== ':memory:' });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // A task's runs go with it.
      db.pragma('foreign_keys = ON');
      db.pragma('secure_delete = ON');
      db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      return new ScheduledTaskStore(db);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#q = prepare(db);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  list(): StoredTask[] {
    return (this.#q.list.all() as TaskRow[]).map(toTask);
  }

  get(id: string): StoredTask | null {
    const row = this.#q.get.get(id) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  put(task: StoredTask): void {
    this.#q.put.run({
      id: task.id,
      name: task.name,
      prompt: task.prompt,
      project_id: task.projectId,
      folder: task.folder,
      model: task.model,
      schedule: task.schedule,
      tools: JSON.stringify(task.tools),
      paused: task.paused ? 1 : 0,
      created_at: task.createdAt,
      anchor: task.anchor,
      next_run_at: task.nextRunAt,
    });
  }

  setNextRun(id: string, nextRunAt: number | null): void {
    this.#q.setNext.run(nextRunAt, id);
  }

  /** Removes the task and its runs (their conversations stay). */
  delete(id: string): boolean {
    return this.#q.delete.run(id).changes > 0;
  }

  /** The task's newest runs first. */
  runs(taskId: string, limit: number): ScheduledRun[] {
    return (this.#q.runs.all(taskId, limit) as RunRow[]).map(toRun);
  }

  /** Records a run (or a count of missed ones) and forgets all but the task's newest `keep`. */
  addRun(run: ScheduledRun, keep: number): void {
    this.#q.addRun.run({
      id: run.id,
      task_id: run.taskId,
      session_id: run.sessionId,
      state: run.state,
      started_at: run.startedAt,
      ended_at: run.endedAt,
      error: run.error,
      missed: run.missed,
    });
    this.#q.trimRuns.run(run.taskId, run.taskId, keep);
  }

  endRun(id: string, state: ScheduledRunState, endedAt: number, error: string | null): void {
    this.#q.endRun.run(state, endedAt, error, id);
  }

  /** Runs left `running` by an Amber that closed mid-run: ended as failed, with the reason. */
  endInterrupted(endedAt: number, error: string): number {
    return this.#q.endInterrupted.run(endedAt, error).changes;
  }
}

/** A tool list that cannot be read (changed by another program) allows nothing: fewer tools, never more. */
function toolsOf(text: string): string[] {
  try {
    const parsed = Tools.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function toTask(row: TaskRow): StoredTask {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    projectId: row.project_id,
    folder: row.folder,
    model: row.model,
    schedule: row.schedule,
    tools: toolsOf(row.tools),
    paused: row.paused === 1,
    createdAt: row.created_at,
    anchor: row.anchor,
    nextRunAt: row.next_run_at,
  };
}

function toRun(row: RunRow): ScheduledRun {
  return ScheduledRun.parse({
    id: row.id,
    taskId: row.task_id,
    sessionId: row.session_id,
    state: row.state,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    error: row.error,
    missed: row.missed,
  });
}

function prepare(db: Database.Database) {
  return {
    list: db.prepare(`SELECT * FROM scheduled_tasks ORDER BY created_at, id`),
    get: db.prepare(`SELECT * FROM scheduled_tasks WHERE id = ?`),
    put: db.prepare(
      `INSERT INTO scheduled_tasks (id, name, prompt, project_id, folder, model, schedule, tools, paused, created_at, anchor, next_run_at)
       VALUES (@id, @name, @prompt, @project_id, @folder, @model, @schedule, @tools, @paused, @created_at, @anchor, @next_run_at)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, prompt = excluded.prompt, project_id = excluded.project_id, folder = excluded.folder, model = excluded.model,
         schedule = excluded.schedule, tools = excluded.tools, paused = excluded.paused, anchor = excluded.anchor, next_run_at = excluded.next_run_at`,
    ),
    setNext: db.prepare(`UPDATE scheduled_tasks SET next_run_at = ? WHERE id = ?`),
    delete: db.prepare(`DELETE FROM scheduled_tasks WHERE id = ?`),
    runs: db.prepare(`SELECT * FROM scheduled_runs WHERE task_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`),
    addRun: db.prepare(
      `INSERT INTO scheduled_runs (id, task_id, session_id, state, started_at, ended_at, error, missed)
       VALUES (@id, @task_id, @session_id, @state, @started_at, @ended_at, @error, @missed)`,
    ),
    trimRuns: db.prepare(
      `DELETE FROM scheduled_runs WHERE task_id = ? AND state <> 'running' AND rowid NOT IN
         (SELECT rowid FROM scheduled_runs WHERE task_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?)`,
    ),
    endRun: db.prepare(`UPDATE scheduled_runs SET state = ?, ended_at = ?, error = ? WHERE id = ?`),
    endInterrupted: db.prepare(`UPDATE scheduled_runs SET state = 'failed', ended_at = ?, error = ? WHERE state = 'running'`),
  };
}
