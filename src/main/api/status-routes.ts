import type { EventName, EventPayload } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';

export interface StatusRoutesOptions {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

/** The status bar over the API: each new view the status service announces goes out as `status.changed`. */
export function createStatusRoutes(app: App, options: StatusRoutesOptions): Disposable & { handlers: Pick<Handlers, 'status.list'> } {
  const forward = app.status.onDidChange((bar) => options.emit('status.changed', bar));
  return {
    handlers: { 'status.list': ({ sessionId }) => app.status.list(sessionId ?? null) },
    dispose: () => forward.dispose(),
  };
}
