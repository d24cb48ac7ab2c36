import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type ProjectChannels = 'projects.list' | 'projects.create' | 'projects.update' | 'projects.remove';

/** The projects over the API (Settings → Projects, the sidebar's groups); the service announces each change. */
export function createProjectRoutes(app: App): Disposable & { handlers: Pick<Handlers, ProjectChannels> } {
  return {
    handlers: {
      'projects.list': () => app.projects.list(),
      'projects.create': (input) => app.projects.create(input),
      'projects.update': ({ id, change }) => app.projects.update(id, change),
      'projects.remove': ({ id }) => {
        app.projects.remove(id);
        return { ok: true as const };
      },
    },
    dispose: () => {},
  };
}
