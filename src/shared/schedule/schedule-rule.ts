import { z } from 'zod';

/** The week's days in RRULE's spelling, Sunday first (as `Date.getDay()` numbers them). */
export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The longest gap between runs of an interval schedule: a week. */
export const MAX_INTERVAL_MINUTES = 7 * 24 * 60;
export const MAX_SCHEDULE_CHARS = 200;

/**
 * When a task runs, as parsed from its RRULE-like text: every N minutes (an interval from the task's anchor,
 * `FREQ=MINUTELY;INTERVAL=N` or `FREQ=HOURLY;INTERVAL=N`), daily at a local time (`FREQ=DAILY;BYHOUR=9;BYMINUTE=0`)
 * or weekly on some days at a local time (`FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=30`).
 */
export type Schedule =
  | { kind: 'every'; minutes: number }
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; days: number[]; hour: number; minute: number };

/** A schedule that cannot be read, with a sentence saying what to write instead. */
export class ScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScheduleError';
  }
}

const EXAMPLES = 'FREQ=MINUTELY;INTERVAL=15, FREQ=HOURLY;INTERVAL=2, FREQ=DAILY;BYHOUR=9;BYMINUTE=0 or FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=30';

function whole(text: string | undefined, name: string, min: number, max: number): number {
  if (text === undefined || !/^\d{1,5}$/.test(text) || Number(text) < min || Number(text) > max)
    throw new ScheduleError(`${name} must be a whole number from ${min} to ${max} (e.g. ${EXAMPLES}).`);
  return Number(text);
}

/** Reads a schedule's text; throws a ScheduleError naming the part that is wrong. */
export function parseSchedule(text: string): Schedule {
  if (text.length > MAX_SCHEDULE_CHARS) throw new ScheduleError(`A schedule is at most ${MAX_SCHEDULE_CHARS} characters (e.g. ${EXAMPLES}).`);
  if (text.trim() === '') throw new ScheduleError(`A schedule starts with FREQ=MINUTELY, HOURLY, DAILY or WEEKLY (e.g. ${EXAMPLES}).`);
  const parts = new Map<string, string>();
  for (const part of text
    .trim()
    .replace(/^RRULE:/i, '')
    .split(';')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim().toUpperCase();
    if (eq <= 0 || !['FREQ', 'INTERVAL', 'BYDAY', 'BYHOUR', 'BYMINUTE'].includes(key) || parts.has(key))
      throw new ScheduleError(`'${clip(part)}' is not a part of a schedule Amber reads; write one like ${EXAMPLES}.`);
    parts.set(
      key,
      part
        .slice(eq + 1)
        .trim()
        .toUpperCase(),
    );
  }
  const freq = parts.get('FREQ');
  const only = (...allowed: string[]) => {
    const extra = [...parts.keys()].find((k) => k !== 'FREQ' && !allowed.includes(k));
    if (extra) throw new ScheduleError(`FREQ=${freq} takes no ${extra}; write one like ${EXAMPLES}.`);
  };
  if (freq === 'MINUTELY' || freq === 'HOURLY') {
    only('INTERVAL');
    const per = freq === 'HOURLY' ? 60 : 1;
    const interval = parts.has('INTERVAL') ? whole(parts.get('INTERVAL'), 'INTERVAL', 1, MAX_INTERVAL_MINUTES / per) : 1;
    return { kind: 'every', minutes: interval * per };
  }
  if (freq === 'DAILY' || freq === 'WEEKLY') {
    only('BYHOUR', 'BYMINUTE', ...(freq === 'WEEKLY' ? ['BYDAY'] : []));
    const hour = whole(parts.get('BYHOUR'), 'BYHOUR', 0, 23);
    const minute = parts.has('BYMINUTE') ? whole(parts.get('BYMINUTE'), 'BYMINUTE', 0, 59) : 0;
    if (freq === 'DAILY') return { kind: 'daily', hour, minute };
    const days = (parts.get('BYDAY') ?? '').split(',').map((d) => WEEKDAYS.indexOf(d.trim() as (typeof WEEKDAYS)[number]));
    if (days.length === 0 || days.some((d) => d < 0))
      throw new ScheduleError(`BYDAY names the days as ${WEEKDAYS.join(',')} (e.g. BYDAY=MO,WE,FR); FREQ=WEEKLY needs at least one.`);
    return { kind: 'weekly', days: [...new Set(days)].sort((a, b) => a - b), hour, minute };
  }
  throw new ScheduleError(`A schedule starts with FREQ=MINUTELY, HOURLY, DAILY or WEEKLY (e.g. ${EXAMPLES}).`);
}

/** The schedule's text as stored (one spelling per schedule, so equal schedules compare equal). */
export function formatSchedule(s: Schedule): string {
  if (s.kind === 'every') return s.minutes % 60 === 0 ? `FREQ=HOURLY;INTERVAL=${s.minutes / 60}` : `FREQ=MINUTELY;INTERVAL=${s.minutes}`;
  const at = `BYHOUR=${s.hour};BYMINUTE=${s.minute}`;
  return s.kind === 'daily' ? `FREQ=DAILY;${at}` : `FREQ=WEEKLY;BYDAY=${s.days.map((d) => WEEKDAYS[d]).join(',')};${at}`;
}

const clock = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** The schedule in words: "every 15 minutes", "daily at 09:00", "Mon, Fri at 17:30". */
export function describeSchedule(s: Schedule): string {
  if (s.kind === 'every') {
    if (s.minutes % 60 === 0) return s.minutes === 60 ? 'every hour' : `every ${s.minutes / 60} hours`;
    return s.minutes === 1 ? 'every minute' : `every ${s.minutes} minutes`;
  }
  if (s.kind === 'daily') return `daily at ${clock(s.hour, s.minute)}`;
  return `${s.days.map((d) => DAY_NAMES[d]).join(', ')} at ${clock(s.hour, s.minute)}`;
}

/** A schedule's text as it crosses an edge: read with parseSchedule, stored in its one spelling. */
export const ScheduleText = z
  .string()
  .min(1)
  .max(MAX_SCHEDULE_CHARS)
  .transform((text, ctx) => {
    try {
      return formatSchedule(parseSchedule(text));
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
      return z.NEVER;
    }
  });

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
