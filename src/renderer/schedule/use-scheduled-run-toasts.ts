import { useEffect } from 'react';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';

/**
 * A toast when a scheduled run ends (done or failed), with Open to go to its conversation; and, once when the
 * window connects, one for the runs missed while Amber was closed (main tells only the first window that asks, so a
 * reload or a reconnect does not say it again), with Show to open Settings → Scheduled tasks.
 */
export function useScheduledRunToasts(onOpen: (sessionId: string) => void, onShowTasks?: () => void): void {
  const api = useApi();
  const toasts = useToasts();
  useEffect(
    () =>
      api.on('schedule.runEnded', ({ task, run }) => {
        const sessionId = run.sessionId;
        toasts.push({
          kind: run.state === 'failed' ? 'error' : 'success',
          title: run.state === 'failed' ? `“${task.name}” failed` : `“${task.name}” finished`,
          ...(run.error ? { message: run.error } : {}),
          ...(sessionId ? { action: { label: 'Open', run: () => onOpen(sessionId) } } : {}),
        });
      }),
    [api, toasts, onOpen],
  );
  // Asked once per window: the callbacks changing later does not ask again. Not cancelled on unmount either: main
  // gives the notice once, so it is shown whichever mount asked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once per window
  useEffect(() => {
    api.call('schedule.takeMissed', {}).then(
      (notice) => {
        if (!notice) return;
        toasts.push({
          kind: 'info',
          title: 'Scheduled runs missed while Amber was closed',
          message: `${missedInWords(notice.tasks)} They are not made up; each task goes on from its next time.`,
          timeoutMs: 20_000,
          ...(onShowTasks ? { action: { label: 'Show', run: onShowTasks } } : {}),
        });
      },
      (e: unknown) => toasts.error('Could not read the missed scheduled runs', e),
    );
  }, [api]);
}

/** “Morning notes” missed 3 runs; “Heartbeat” missed 1 run. */
export function missedInWords(tasks: readonly { name: string; missed: number }[]): string {
  const shown = tasks.slice(0, 4).map((t) => `“${t.name}” missed ${t.missed.toLocaleString('en')} run${t.missed === 1 ? '' : 's'}`);
  const more = tasks.length > 4 ? `; and ${tasks.length - 4} more tasks did` : '';
  return `${shown.join('; ')}${more}.`;
}
