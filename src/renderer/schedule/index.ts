// Scheduled tasks in the window: the list with each task's runs, the form that adds one, and the toasts of runs ending.
export { ScheduleSection } from './ScheduleSection.tsx';
export { useScheduledRunToasts } from './use-scheduled-run-toasts.ts';
