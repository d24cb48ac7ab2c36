export * from './api-contract.ts';
export * from './api-result.ts';
export * from './amber-bridge.ts';
export * from './wire-message.ts';
export * from './api-names.ts';
