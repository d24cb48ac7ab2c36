import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

type PlanChannels = 'plan.get' | 'plan.settings' | 'plan.setEnabled';

/**
 * The plan of a conversation's branch over the API, and the switch of the todo tool. The plan's changes are
 * announced by its owner (plan.changed), not here.
 */
export function createPlanRoutes(app: App): Disposable & { handlers: Pick<Handlers, PlanChannels> } {
  return {
    handlers: {
      'plan.get': ({ sessionId }) => {
        app.sessions.get(sessionId);
        return app.plan.current(sessionId);
      },
      'plan.settings': () => ({ enabled: app.settings.get('agent.todo') }),
      'plan.setEnabled': ({ enabled }) => {
        app.settings.set('agent.todo', enabled);
        return { enabled: app.settings.get('agent.todo') };
      },
    },
    dispose: () => {},
  };
}
