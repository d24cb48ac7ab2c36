export * from './task-args.ts';
export * from './subagent-view.ts';
