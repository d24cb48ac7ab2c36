export * from './agent-event.ts';
export * from './tool-policy.ts';
