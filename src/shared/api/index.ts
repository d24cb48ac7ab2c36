export * from './api-contract.ts';
export * from './api-result.ts';
export * from './amber-bridge.ts';
export * from './wire-message.ts';
export * from './api-names.ts';
export * from './settings-api.ts';
export * from './status-api.ts';
export * from './panels-api.ts';
