export { createApiRouter, toErrorBody } from './api-router.ts';
export type { ApiRouter, ApiRouterOptions, EventListener, Handlers } from './api-router.ts';
