export * from './assistant-message-builder.ts';
export * from './idle-watchdog.ts';
export * from './provider-config.ts';
export * from './provider-error.ts';
export * from './read-sse.ts';
export * from './run-provider-stream.ts';
export * from './send-with-retry.ts';
export * from './define-provider-plugin.ts';
