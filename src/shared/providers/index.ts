export * from './provider-stream.ts';
export * from './provider-presets.ts';
export * from './redact-secret.ts';
export * from './provider-account.ts';
export * from './failure-advice.ts';
