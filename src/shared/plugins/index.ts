export * from './plugin-manifest.ts';
export * from './plugin-config-schema.ts';
export * from './contributions.ts';
export * from './handshake.ts';
export * from './plugin-api.ts';
export * from './channel-router.ts';
export * from './protocol.ts';
export * from './plain-data.ts';
export * from './call-gate.ts';
export * from './line-splitter.ts';
export * from './host-api-args.ts';
// The schema and its type (plugin-api.ts has the same type without zod, for the plugin process).
export { LogLevel } from './host-api-args.ts';
export * from './core-topics.ts';
export * from './declaration-limits.ts';
export * from './hooks.ts';
export * from './provider-probe.ts';
export * from './static-contributions.ts';
export * from './plugin-method.ts';
