import type { ScheduledRunEnded } from '../../shared/schedule/index.ts';

/** A system notification as the shell shows it: a title, a line, and what a click does. */
export interface SystemNotice {
  title: string;
  body: string;
}

/**
 * The scheduler's `notify` seam for the desktop shell: each run that ends becomes a system notification (Electron's
 * Notification, passed in as `show` so this stays testable without Electron). A click opens the window.
 */
export function runNotifier(show: (notice: SystemNotice) => void): (ended: ScheduledRunEnded) => void {
  return ({ task, run }) => {
    if (run.state === 'done') show({ title: `“${task.name}” finished`, body: 'Its conversation is in Amber’s list.' });
    else if (run.state === 'failed') show({ title: `“${task.name}” failed`, body: run.error ?? 'The run failed.' });
  };
}
