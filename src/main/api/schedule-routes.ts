import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type ScheduleChannels = 'schedule.list' | 'schedule.add' | 'schedule.runNow' | 'schedule.setPaused' | 'schedule.delete';

/** The scheduled tasks over the API for Settings → Scheduled tasks: the scheduler owns them and announces each change. */
export function createScheduleRoutes(app: App): Disposable & { handlers: Pick<Handlers, ScheduleChannels> } {
  const { scheduler } = app;
  return {
    handlers: {
      'schedule.list': () => ({ tasks: scheduler.list() }),
      'schedule.add': (input) => scheduler.add(input),
      'schedule.runNow': ({ id }) => scheduler.runNow(id),
      'schedule.setPaused': ({ id, paused }) => scheduler.setPaused(id, paused),
      'schedule.delete': ({ id }) => {
        scheduler.delete(id);
        return { ok: true as const };
      },
    },
    dispose: () => {},
  };
}
