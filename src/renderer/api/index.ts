export { createAmberClient } from './amber-client.ts';
export type { AmberClient } from './amber-client.ts';
export { ApiProvider, useApi } from './api-context.tsx';
