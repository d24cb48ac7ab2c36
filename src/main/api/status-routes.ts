import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

/** The status bar over the API (the status service announces each new view itself). */
export function createStatusRoutes(app: App): Disposable & { handlers: Pick<Handlers, 'status.list'> } {
  return {
    handlers: { 'status.list': ({ sessionId }) => app.status.list(sessionId ?? null) },
    dispose: () => {},
  };
}
