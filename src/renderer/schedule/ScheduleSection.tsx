import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ScheduledRun, ScheduledTask } from '../../shared/schedule/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';
import { ScheduleForm } from './ScheduleForm.tsx';
import './schedule.css';

interface Props {
  sessionId: string | null;
  /** Opens a run's conversation (Settings closes). */
  onOpenSession?(sessionId: string): void;
}

const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function duration(run: ScheduledRun): string {
  const seconds = Math.max(0, Math.round(((run.endedAt ?? Date.now()) - run.startedAt) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const STATE = { running: 'Running', done: 'Done', failed: 'Failed', missed: 'Missed' } as const;

/**
 * The scheduled tasks (Settings → Scheduled tasks): each with its schedule, next run, tools and last runs (state,
 * duration, a link to the run's conversation), Run now, Edit (the form in place of the row), Pause/Resume and Delete; and the
 * form that adds one.
 */
export function ScheduleSection({ sessionId, onOpenSession }: Props) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const { data, error } = useQuery({ queryKey: serverKeys.schedule, queryFn: () => api.call('schedule.list', {}), staleTime: 0 });
  const [adding, setAdding] = useState(false);
  /** The task whose form is open in place of its row. */
  const [editing, setEditing] = useState<string | null>(null);
  useEffect(() => {
    if (error) toasts.error('Could not read the scheduled tasks', error);
  }, [error, toasts]);
  const act = async (what: string, call: () => Promise<unknown>) => {
    try {
      await call();
      await queries.invalidateQueries({ queryKey: serverKeys.schedule });
    } catch (e) {
      toasts.error(`Could not ${what}`, e);
    }
  };
  const tasks = data?.tasks ?? [];
  return (
    <section className="settings-section" aria-labelledby="settings-schedule" data-testid="settings-schedule">
      <h2 id="settings-schedule">Scheduled tasks</h2>
      <p className="hint">
        A task sends its prompt on a schedule while Amber runs, each time in a new conversation. Nobody is asked during a run: it uses only the tools you pick,
        and every other call is denied. Runs missed while Amber was closed are counted, not made up. Also /schedule.
      </p>
      {data !== undefined && tasks.length === 0 && !adding && <p className="hint">No task is scheduled.</p>}
      <div className="plugin-list">
        {tasks.map((t) =>
          editing === t.id ? (
            <ScheduleForm key={t.id} sessionId={sessionId} task={t} onDone={() => setEditing(null)} />
          ) : (
            <TaskRow
              key={t.id}
              task={t}
              onEdit={() => setEditing(t.id)}
              onRun={() => void act(`run ${t.name}`, () => api.call('schedule.runNow', { id: t.id }))}
              onPause={(paused) => void act(`${paused ? 'pause' : 'resume'} ${t.name}`, () => api.call('schedule.setPaused', { id: t.id, paused }))}
              onDelete={() => void act(`delete ${t.name}`, () => api.call('schedule.delete', { id: t.id }))}
              {...(onOpenSession ? { onOpen: onOpenSession } : {})}
            />
          ),
        )}
      </div>
      {adding ? (
        <ScheduleForm sessionId={sessionId} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="btn btn-small schedule-new" onClick={() => setAdding(true)} data-testid="schedule-new">
          New task
        </button>
      )}
    </section>
  );
}

interface RowProps {
  task: ScheduledTask;
  onRun(): void;
  onEdit(): void;
  onPause(paused: boolean): void;
  onDelete(): void;
  onOpen?(sessionId: string): void;
}

function TaskRow({ task, onRun, onEdit, onPause, onDelete, onOpen }: RowProps) {
  const labelId = `schedule-task-${task.id}`;
  return (
    <div className="plugin-row schedule-task" data-testid="schedule-task" data-task={task.name} aria-labelledby={labelId} role="group">
      <div className="plugin-main">
        <strong id={labelId}>{task.name}</strong>{' '}
        <span className="hint">
          {task.when}
          {task.paused ? ' · paused' : task.nextRunAt !== null ? ` · next ${when(task.nextRunAt)}` : ''}
          {task.running ? ' · running now' : ''}
        </span>
        <p className="plugin-desc schedule-prompt">{task.prompt}</p>
        <p className="hint">
          <span className="schedule-place">{task.project ? `Project ${task.project}` : task.folder}</span> · {task.model ?? 'default model'} · tools:{' '}
          {task.tools.length > 0 ? task.tools.join(', ') : 'none'}
        </p>
        {task.runs.length > 0 && (
          <ul className="schedule-runs" aria-label={`Last runs of ${task.name}`}>
            {task.runs.slice(0, 5).map((r) => (
              <li key={r.id} className={`schedule-run is-${r.state}`} data-testid="schedule-run" data-state={r.state}>
                <span className="schedule-run-state">{STATE[r.state]}</span>
                {r.state === 'missed' ? (
                  <span className="hint">{r.error}</span>
                ) : (
                  <>
                    <span className="hint">
                      {when(r.startedAt)} · {duration(r)}
                    </span>
                    {r.error && <span className="hint schedule-run-error">{r.error}</span>}
                    {r.sessionId && onOpen && (
                      <button type="button" className="btn btn-small btn-ghost" onClick={() => onOpen(r.sessionId!)}>
                        Open
                      </button>
                    )}
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="schedule-actions">
        <button type="button" className="btn btn-small" onClick={onRun} disabled={task.running}>
          Run now
        </button>
        <button type="button" className="btn btn-small" onClick={onEdit} aria-label={`Edit ${task.name}`}>
          Edit
        </button>
        <button type="button" className="btn btn-small" onClick={() => onPause(!task.paused)}>
          {task.paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={onDelete} aria-label={`Delete ${task.name}`}>
          Delete
        </button>
      </div>
    </div>
  );
}
