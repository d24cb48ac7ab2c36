import { formatSchedule, parseSchedule, type Schedule } from '../../shared/schedule/index.ts';

/** What the form's schedule fields hold: a kind, a count for intervals, a time and days for daily and weekly. */
export interface ScheduleChoice {
  kind: 'minutes' | 'hours' | 'daily' | 'weekly';
  every: number;
  /** HH:MM, local time. */
  time: string;
  /** 0 = Sunday … 6 = Saturday. */
  days: number[];
}

export const DEFAULT_CHOICE: ScheduleChoice = { kind: 'daily', every: 30, time: '09:00', days: [1, 2, 3, 4, 5] };

/** The schedule's stored text for the form's fields, or a sentence saying which field to fix. */
export function buildSchedule(choice: ScheduleChoice): { text: string } | { problem: string } {
  if (choice.kind === 'minutes' || choice.kind === 'hours') {
    const max = choice.kind === 'minutes' ? 10_080 : 168;
    if (!Number.isInteger(choice.every) || choice.every < 1 || choice.every > max)
      return { problem: `Every how many ${choice.kind}: a whole number from 1 to ${max}.` };
    return { text: formatSchedule({ kind: 'every', minutes: choice.kind === 'hours' ? choice.every * 60 : choice.every }) };
  }
  const m = /^(\d{1,2}):(\d{2})$/.exec(choice.time);
  const hour = m ? Number(m[1]) : Number.NaN;
  const minute = m ? Number(m[2]) : Number.NaN;
  if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59)) return { problem: 'Give the time as HH:MM (00:00 to 23:59).' };
  const schedule: Schedule =
    choice.kind === 'daily' ? { kind: 'daily', hour, minute } : { kind: 'weekly', days: [...new Set(choice.days)].sort((a, b) => a - b), hour, minute };
  if (schedule.kind === 'weekly' && schedule.days.length === 0) return { problem: 'Pick at least one day of the week.' };
  return { text: formatSchedule(schedule) };
}

/** The tools field's text as a list: split at commas and line breaks, trimmed, empty ones left out. */
export function toolList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

const two = (n: number) => String(n).padStart(2, '0');

/** The form's fields for a stored schedule (editing a task); the default ones when it cannot be read. */
export function choiceOf(text: string): ScheduleChoice {
  let schedule: Schedule;
  try {
    schedule = parseSchedule(text);
  } catch {
    return DEFAULT_CHOICE;
  }
  if (schedule.kind === 'every')
    return schedule.minutes % 60 === 0
      ? { ...DEFAULT_CHOICE, kind: 'hours', every: schedule.minutes / 60 }
      : { ...DEFAULT_CHOICE, kind: 'minutes', every: schedule.minutes };
  const time = `${two(schedule.hour)}:${two(schedule.minute)}`;
  return schedule.kind === 'daily' ? { ...DEFAULT_CHOICE, kind: 'daily', time } : { ...DEFAULT_CHOICE, kind: 'weekly', time, days: schedule.days };
}

/** A tool list entry's tool: `bash:npm test` → `bash`. */
export const entryTool = (entry: string): string => {
  const colon = entry.indexOf(':');
  return (colon === -1 ? entry : entry.slice(0, colon)).trim();
};

/** The entries for one tool as the picker sets them: the name alone, or one entry per command prefix (`bash:npm test`). */
export function setToolEntries(entries: readonly string[], tool: string, on: boolean, prefixes: readonly string[] = []): string[] {
  const rest = entries.filter((e) => entryTool(e) !== tool);
  if (!on) return rest;
  return [...rest, ...(prefixes.length > 0 ? prefixes.map((p) => `${tool}:${p}`) : [tool])];
}

/** A shell tool's command prefixes among the entries. */
export function prefixesOf(entries: readonly string[], tool: string): string[] {
  return entries.filter((e) => entryTool(e) === tool && e.includes(':')).map((e) => e.slice(e.indexOf(':') + 1).trim());
}
