// Scheduled tasks: the scheduler with its one timer, a run as a conversation of its own, and /schedule.
export { type StartedTaskRun, TaskScheduler, type TaskSchedulerOptions, type TaskStore } from './task-scheduler.ts';
export { localStamp, type ScheduledRunCore, startScheduledRun } from './scheduled-run.ts';
export { checkTaskInput, checkTaskModel, coreTaskChecks, type KnownAccount, type TaskChecks } from './task-checks.ts';
export { describeTasks, type ScheduleCommandContext, scheduleCommands } from './schedule-commands.ts';
export { ScheduledTaskStore, type StoredTask } from './scheduled-task-store.ts';
