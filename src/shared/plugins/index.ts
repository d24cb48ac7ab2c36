export * from './plugin-manifest.ts';
export * from './plugin-config-schema.ts';
export * from './contributions.ts';
export * from './handshake.ts';
export * from '../plugin-wire/index.ts';
export * from './host-api-args.ts';
// The schema and its type (the wire's plugin-api.ts has the same type without zod, for the plugin process).
export { LogLevel } from './host-api-args.ts';
export * from './core-topics.ts';
export * from './declaration-limits.ts';
export * from './hooks.ts';
export * from './provider-probe.ts';
export * from './static-contributions.ts';
export * from './plugin-method.ts';
export * from './rendered-block.ts';
