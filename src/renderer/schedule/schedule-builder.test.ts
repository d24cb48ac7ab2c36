import { expect, test } from 'vitest';
import { parseSchedule } from '../../shared/schedule/index.ts';
import { buildSchedule, choiceOf, DEFAULT_CHOICE, prefixesOf, setToolEntries, toolList } from './schedule-builder.ts';

test.each([
  [{ kind: 'minutes', every: 15, time: '', days: [] }, 'FREQ=MINUTELY;INTERVAL=15'],
  [{ kind: 'minutes', every: 120, time: '', days: [] }, 'FREQ=HOURLY;INTERVAL=2'],
  [{ kind: 'hours', every: 6, time: '', days: [] }, 'FREQ=HOURLY;INTERVAL=6'],
  [{ kind: 'daily', every: 0, time: '09:05', days: [] }, 'FREQ=DAILY;BYHOUR=9;BYMINUTE=5'],
  [{ kind: 'weekly', every: 0, time: '17:30', days: [5, 1, 5] }, 'FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=30'],
] as const)('the form %j builds %s, which main reads back', (choice, text) => {
  const built = buildSchedule({ ...choice, days: [...choice.days] });
  expect(built).toEqual({ text });
  expect(() => parseSchedule(text)).not.toThrow();
});

test.each([
  [{ kind: 'minutes', every: 0, time: '', days: [] }, /1 to 10080/],
  [{ kind: 'hours', every: 1.5, time: '', days: [] }, /1 to 168/],
  [{ kind: 'daily', every: 0, time: '24:00', days: [] }, /HH:MM/],
  [{ kind: 'daily', every: 0, time: 'nine', days: [] }, /HH:MM/],
  [{ kind: 'weekly', every: 0, time: '09:00', days: [] }, /at least one day/],
] as const)('the form %j says what to fix', (choice, problem) => {
  const built = buildSchedule({ ...choice, days: [...choice.days] });
  expect('problem' in built && built.problem).toMatch(problem);
});

test('the tools field splits at commas and lines', () => {
  expect(toolList(' read, bash:npm test\n\ngrep ,')).toEqual(['read', 'bash:npm test', 'grep']);
});

test.each([
  ['FREQ=MINUTELY;INTERVAL=15', { kind: 'minutes', every: 15 }],
  ['FREQ=HOURLY;INTERVAL=3', { kind: 'hours', every: 3 }],
  ['FREQ=DAILY;BYHOUR=7;BYMINUTE=5', { kind: 'daily', time: '07:05' }],
  ['FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=30', { kind: 'weekly', time: '17:30', days: [1, 5] }],
])('a stored %s opens in the form as it was, and builds the same text again', (text, fields) => {
  const choice = choiceOf(text);
  expect(choice).toMatchObject(fields);
  expect(buildSchedule(choice)).toEqual({ text });
});

test('a stored schedule that cannot be read opens with the default fields', () => {
  expect(choiceOf('FREQ=NEVER')).toEqual(DEFAULT_CHOICE);
});

test('the picker sets a tool as its name, or as one entry per command prefix, and leaves the others', () => {
  const entries = ['read', 'bash:npm test'];
  expect(setToolEntries(entries, 'grep', true)).toEqual(['read', 'bash:npm test', 'grep']);
  expect(setToolEntries(entries, 'read', false)).toEqual(['bash:npm test']);
  expect(setToolEntries(entries, 'bash', true, ['npm test', 'git status'])).toEqual(['read', 'bash:npm test', 'bash:git status']);
  expect(prefixesOf(['read', 'bash:npm test', 'bash: git status'], 'bash')).toEqual(['npm test', 'git status']);
});
