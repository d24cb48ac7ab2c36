import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

/** The plan of a conversation's branch over the API. Its changes are announced by its owner (plan.changed), not here. */
export function createPlanRoutes(app: App): Disposable & { handlers: Pick<Handlers, 'plan.get'> } {
  return {
    handlers: {
      'plan.get': ({ sessionId }) => {
        app.sessions.get(sessionId);
        return app.plan.current(sessionId);
      },
    },
    dispose: () => {},
  };
}
