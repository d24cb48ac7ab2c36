export * from './schedule-rule.ts';
export * from './next-run.ts';
export * from './scheduled-task.ts';
