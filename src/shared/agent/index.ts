export * from './agent-event.ts';
