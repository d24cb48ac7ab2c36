export * from './task-args.ts';
export * from './subagent-view.ts';
export * from './subagent-settings.ts';
