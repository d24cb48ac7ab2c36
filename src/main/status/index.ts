export { ENTRY_NOTIFY_MS, StatusService } from './status-service.ts';
export type { StatusSources } from './status-service.ts';
