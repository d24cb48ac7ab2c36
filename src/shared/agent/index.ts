export * from './agent-event.ts';
export * from './tool-policy.ts';
export * from './thinking-level.ts';
