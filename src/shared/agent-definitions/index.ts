export * from './agent-definition.ts';
