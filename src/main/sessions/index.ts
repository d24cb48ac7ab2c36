export { SessionStore } from './session-store.ts';
export type { ImportedSession, ListOptions, SessionStoreOptions } from './session-store.ts';
export { SCHEMA_VERSION } from './migrations.ts';
