import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type ScheduleChannels =
  | 'schedule.list'
  | 'schedule.add'
  | 'schedule.update'
  | 'schedule.runNow'
  | 'schedule.setPaused'
  | 'schedule.delete'
  | 'schedule.takeMissed'
  | 'tools.list';

/**
 * The scheduled tasks over the API for Settings → Scheduled tasks: the scheduler owns them and announces each change.
 * Also `tools.list`, the tools a run can be offered (read-only), which the task form picks from.
 */
export function createScheduleRoutes(app: App): Disposable & { handlers: Pick<Handlers, ScheduleChannels> } {
  const { scheduler } = app;
  return {
    handlers: {
      'schedule.list': () => ({ tasks: scheduler.list() }),
      'schedule.add': (input) => scheduler.add(input),
      'schedule.update': ({ id, task }) => scheduler.update(id, task),
      'schedule.runNow': ({ id }) => scheduler.runNow(id),
      'schedule.setPaused': ({ id, paused }) => scheduler.setPaused(id, paused),
      'schedule.delete': ({ id }) => {
        scheduler.delete(id);
        return { ok: true as const };
      },
      'schedule.takeMissed': () => scheduler.takeMissedNotice(),
      'tools.list': async () => ({ tools: await app.toolCatalog.list() }),
    },
    dispose: () => {},
  };
}
