import { expect, test } from 'vitest';
import { describeSchedule, formatSchedule, parseSchedule, ScheduleText } from './schedule-rule.ts';

test.each([
  ['FREQ=MINUTELY;INTERVAL=15', { kind: 'every', minutes: 15 }, 'FREQ=MINUTELY;INTERVAL=15', 'every 15 minutes'],
  ['freq=minutely', { kind: 'every', minutes: 1 }, 'FREQ=MINUTELY;INTERVAL=1', 'every minute'],
  ['FREQ=MINUTELY;INTERVAL=120', { kind: 'every', minutes: 120 }, 'FREQ=HOURLY;INTERVAL=2', 'every 2 hours'],
  ['FREQ=HOURLY', { kind: 'every', minutes: 60 }, 'FREQ=HOURLY;INTERVAL=1', 'every hour'],
  ['RRULE:FREQ=HOURLY;INTERVAL=6', { kind: 'every', minutes: 360 }, 'FREQ=HOURLY;INTERVAL=6', 'every 6 hours'],
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0', { kind: 'daily', hour: 9, minute: 0 }, 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0', 'daily at 09:00'],
  [' FREQ=DAILY ; BYHOUR=23 ', { kind: 'daily', hour: 23, minute: 0 }, 'FREQ=DAILY;BYHOUR=23;BYMINUTE=0', 'daily at 23:00'],
  [
    'FREQ=WEEKLY;BYDAY=FR,MO,MO;BYHOUR=17;BYMINUTE=30',
    { kind: 'weekly', days: [1, 5], hour: 17, minute: 30 },
    'FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=30',
    'Mon, Fri at 17:30',
  ],
])('%s reads as a schedule, is stored in one spelling and said in words', (text, parsed, stored, words) => {
  const schedule = parseSchedule(text);
  expect(schedule).toEqual(parsed);
  expect(formatSchedule(schedule)).toBe(stored);
  expect(describeSchedule(schedule)).toBe(words);
  expect(ScheduleText.parse(text)).toBe(stored);
  expect(parseSchedule(stored)).toEqual(parsed);
});

test.each([
  ['', /starts with FREQ=/],
  ['every day at nine', /is not a part of a schedule/],
  ['FREQ=YEARLY', /starts with FREQ=MINUTELY, HOURLY, DAILY or WEEKLY/],
  ['FREQ=MINUTELY;INTERVAL=0', /INTERVAL must be a whole number from 1 to 10080/],
  ['FREQ=MINUTELY;INTERVAL=-5', /INTERVAL must be a whole number/],
  ['FREQ=MINUTELY;INTERVAL=1.5', /INTERVAL must be a whole number/],
  ['FREQ=HOURLY;INTERVAL=169', /INTERVAL must be a whole number from 1 to 168/],
  ['FREQ=MINUTELY;INTERVAL=99999999999999', /INTERVAL must be a whole number/],
  ['FREQ=DAILY', /BYHOUR must be a whole number from 0 to 23/],
  ['FREQ=DAILY;BYHOUR=24', /BYHOUR must be a whole number from 0 to 23/],
  ['FREQ=DAILY;BYHOUR=9;BYMINUTE=60', /BYMINUTE must be a whole number from 0 to 59/],
  ['FREQ=DAILY;BYHOUR=9;INTERVAL=2', /FREQ=DAILY takes no INTERVAL/],
  ['FREQ=WEEKLY;BYHOUR=9', /BYDAY names the days/],
  ['FREQ=WEEKLY;BYDAY=XX;BYHOUR=9', /BYDAY names the days/],
  ['FREQ=WEEKLY;BYDAY=MO;BYDAY=TU;BYHOUR=9', /is not a part of a schedule/],
  ['FREQ=DAILY;BYHOUR=9;COUNT=3', /is not a part of a schedule/],
  ['FREQ=DAILY;BYHOUR=9\u0000', /BYHOUR must be a whole number/],
  ['FREQ=MINUTELY;'.repeat(30), /at most 200 characters/],
])('garbage %j is refused with a sentence saying what to write', (text, message) => {
  expect(() => parseSchedule(text)).toThrow(message);
  expect(ScheduleText.safeParse(text).success).toBe(false);
});
