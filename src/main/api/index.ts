export { createApiRouter, toErrorBody } from './api-router.ts';
export type { ApiRouter, ApiRouterOptions, EventListener, Handlers } from './api-router.ts';
export { windowEvents } from './window-events.ts';
export type { CoreEvent, WindowEventSources, WindowEvents } from './window-events.ts';
