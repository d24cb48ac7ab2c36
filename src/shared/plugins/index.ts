export * from './plugin-manifest.ts';
export * from './contributions.ts';
export * from './handshake.ts';
export * from './plugin-api.ts';
export * from './channel-router.ts';
export * from './protocol.ts';
export * from './core-topics.ts';
export * from './declaration-limits.ts';
