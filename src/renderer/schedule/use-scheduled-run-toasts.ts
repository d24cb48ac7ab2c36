import { useEffect } from 'react';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';

/** A toast when a scheduled run ends (done or failed), with Open to go to its conversation. */
export function useScheduledRunToasts(onOpen: (sessionId: string) => void): void {
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
}
