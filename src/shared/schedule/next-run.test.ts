import { afterAll, beforeAll, expect, test } from 'vitest';
import { countRuns, MAX_COUNTED_RUNS, nextRun } from './next-run.ts';
import { parseSchedule } from './schedule-rule.ts';

// Local time is the process's: these run in a zone with daylight saving (Berlin: +1, +2 from the last Sunday of
// March at 02:00 to the last Sunday of October at 03:00). Each test file runs in a process of its own.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const two = (n: number) => String(n).padStart(2, '0');
/** A local wall-clock time in the zone, as the ISO text with its offset. */
const local = (ms: number): string => {
  const d = new Date(ms);
  const off = -d.getTimezoneOffset();
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}${off >= 0 ? '+' : '-'}${two(Math.abs(off) / 60)}`;
};
const at = (iso: string) => Date.parse(iso);

test('the zone is the one the table is written for', () => {
  expect(local(at('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00+02');
  expect(local(at('2026-01-01T10:00:00Z'))).toBe('2026-01-01T11:00+01');
});

test.each([
  // A daily time later today, earlier today (tomorrow), exactly now (tomorrow: "after" is strict).
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0', '2026-06-10T08:00+02:00', '2026-06-10T09:00+02'],
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0', '2026-06-10T10:00+02:00', '2026-06-11T09:00+02'],
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0', '2026-06-10T09:00+02:00', '2026-06-11T09:00+02'],
  // Across the end of a month and a year.
  ['FREQ=DAILY;BYHOUR=0;BYMINUTE=5', '2026-12-31T23:00+01:00', '2027-01-01T00:05+01'],
  // Spring forward (2026-03-29, 02:00 → 03:00): 09:00 is still 09:00 on the clock, an hour less apart.
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0', '2026-03-28T10:00+01:00', '2026-03-29T09:00+02'],
  // A time in the gap runs when the clock first reads it after the gap.
  ['FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-03-28T12:00+01:00', '2026-03-29T03:30+02'],
  ['FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-03-29T03:30+02:00', '2026-03-30T02:30+02'],
  // Fall back (2026-10-25, 03:00 → 02:00): a time that happens twice runs once, the first time.
  ['FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-10-24T12:00+02:00', '2026-10-25T02:30+02'],
  ['FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-10-25T02:30+02:00', '2026-10-26T02:30+01'],
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0', '2026-10-24T10:00+02:00', '2026-10-25T09:00+01'],
  // Weekly: the next listed day (2026-06-10 is a Wednesday), the same day later, the next week.
  ['FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=30', '2026-06-10T12:00+02:00', '2026-06-12T17:30+02'],
  ['FREQ=WEEKLY;BYDAY=WE;BYHOUR=17;BYMINUTE=30', '2026-06-10T12:00+02:00', '2026-06-10T17:30+02'],
  ['FREQ=WEEKLY;BYDAY=WE;BYHOUR=17;BYMINUTE=30', '2026-06-10T18:00+02:00', '2026-06-17T17:30+02'],
  ['FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30', '2026-03-27T12:00+01:00', '2026-03-29T03:30+02'],
])('%s after %s is due %s (local time)', (rule, after, due) => {
  expect(local(nextRun(parseSchedule(rule), at(after)))).toBe(due);
});

test('an interval counts from its anchor in real time: a DST change moves it on the clock, never bunches it', () => {
  const every90 = parseSchedule('FREQ=MINUTELY;INTERVAL=90');
  const anchor = at('2026-03-29T00:00+01:00');
  expect(local(nextRun(every90, anchor, anchor))).toBe('2026-03-29T01:30+01');
  // 03:00 real time after the anchor is 04:00 on the clock (the hour 02:00 did not happen).
  expect(local(nextRun(every90, at('2026-03-29T01:30+01:00'), anchor))).toBe('2026-03-29T04:00+02');
  // Before its anchor the task is due at the anchor; later, on the grid, whatever "after" is.
  expect(nextRun(every90, anchor - 1, anchor)).toBe(anchor);
  expect(nextRun(every90, anchor + 91 * 60_000, anchor)).toBe(anchor + 180 * 60_000);
});

test('missed runs are counted from the due time that was pending up to now, inclusive', () => {
  const daily = parseSchedule('FREQ=DAILY;BYHOUR=9;BYMINUTE=0');
  const due = at('2026-06-10T09:00+02:00');
  expect(countRuns(daily, due, at('2026-06-10T08:00+02:00'))).toBe(0);
  expect(countRuns(daily, due, due)).toBe(1);
  expect(countRuns(daily, due, at('2026-06-12T10:00+02:00'))).toBe(3);
  const every15 = parseSchedule('FREQ=MINUTELY;INTERVAL=15');
  expect(countRuns(every15, due, due + 44 * 60_000, due)).toBe(3);
  expect(countRuns(every15, due, due + 45 * 60_000, due)).toBe(4);
  // A year of a one-minute task is counted at once, capped.
  expect(countRuns(parseSchedule('FREQ=MINUTELY'), due, due + 365 * 86_400_000, due)).toBe(MAX_COUNTED_RUNS);
});
