import type { Schedule } from './schedule-rule.ts';

/** How many due times a count of missed runs looks at, at most (27 years of a daily task). */
export const MAX_COUNTED_RUNS = 10_000;

/**
 * The first time after `after` (ms) the schedule is due. An interval schedule counts from its `anchor` (when the
 * task was made or changed) in real time, so a DST change moves it on the clock but never bunches or skips runs.
 * Daily and weekly schedules are in the process's local time: a time in a spring-forward gap runs when the clock
 * reads it first after the gap (02:30 becomes 03:30); one that happens twice in a fall-back runs once, the first time.
 */
export function nextRun(schedule: Schedule, after: number, anchor: number = after): number {
  if (schedule.kind === 'every') {
    const period = schedule.minutes * 60_000;
    if (after < anchor) return anchor;
    return anchor + (Math.floor((after - anchor) / period) + 1) * period;
  }
  const from = new Date(after);
  for (let i = 0; i <= 8; i++) {
    const day = new Date(from.getFullYear(), from.getMonth(), from.getDate() + i, schedule.hour, schedule.minute, 0, 0);
    if (schedule.kind === 'weekly' && !schedule.days.includes(day.getDay())) continue;
    if (day.getTime() > after) return day.getTime();
  }
  // Unreachable for a parsed schedule (a weekly one names at least one day); a week on, so nothing spins.
  return after + 7 * 24 * 3_600_000;
}

/** How many due times fall in [from, to]: the runs a task missed while Amber was closed (capped at MAX_COUNTED_RUNS). */
export function countRuns(schedule: Schedule, from: number, to: number, anchor: number = from): number {
  if (to < from) return 0;
  if (schedule.kind === 'every') {
    const first = from <= anchor ? anchor : nextRun(schedule, from - 1, anchor);
    if (first > to) return 0;
    return Math.min(MAX_COUNTED_RUNS, Math.floor((to - first) / (schedule.minutes * 60_000)) + 1);
  }
  let count = 0;
  for (let t = nextRun(schedule, from - 1); t <= to && count < MAX_COUNTED_RUNS; t = nextRun(schedule, t)) count++;
  return count;
}
