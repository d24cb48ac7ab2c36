import { expect, test } from 'vitest';
import { versionMarks } from './version-marks.ts';

const at = (day: number, hour: number) => Date.UTC(2026, 10, day, hour);
const format = (ms: number, withDay: boolean) => `${withDay ? `${new Date(ms).getUTCDate()}/` : ''}${new Date(ms).getUTCHours()}h`;

test('an edit is told by the words it changed, cut where the two agree again', () => {
  const marks = versionMarks([{ text: 'Tell me about cats and their habits' }, { text: 'Tell me about small dogs and their habits' }], 6, format);
  expect(marks.map((m) => [m.words, m.cutBefore, m.cutAfter])).toEqual([
    ['cats', true, true],
    ['small dogs', true, true],
  ]);
  expect(marks[1]!.rest).toBe('and their habits');
});

test('among three versions each is told from the one it is most like', () => {
  const marks = versionMarks([{ text: 'Plan a trip to Rome in May' }, { text: 'Plan a trip to Rome in June' }, { text: 'Plan a dinner' }], 6, format);
  expect(marks.map((m) => m.words)).toEqual(['May', 'June', 'dinner']);
  expect(marks.map((m) => m.cutBefore)).toEqual([true, true, true]);
  expect(marks.map((m) => m.cutAfter)).toEqual([false, false, false]);
});

test('replies that differ from the first word show their opening words, at most the limit', () => {
  const marks = versionMarks([{ text: 'Sure, here is one way to do it well' }, { text: 'Another approach works better' }], 4, format);
  expect(marks.map((m) => [m.words, m.cutBefore, m.cutAfter])).toEqual([
    ['Sure, here is one', false, true],
    ['Another approach works better', false, false],
  ]);
});

test('a clipped preview is not compared by its end, and says more follows', () => {
  const marks = versionMarks([{ text: 'Compare the two lists and say which is…' }, { text: 'Compare the three lists and say which is…' }], 6, format);
  expect(marks.map((m) => [m.words, m.cutAfter])).toEqual([
    ['two lists and say which is', true],
    ['three lists and say which is', true],
  ]);
});

test('the model is named only when the versions differ in it, the day only when they were written on different days', () => {
  const same = versionMarks(
    [
      { text: 'a', at: at(30, 9), model: 'm1' },
      { text: 'b', at: at(30, 10), model: 'm1' },
    ],
    6,
    format,
  );
  expect(same.map((m) => [m.time, m.model])).toEqual([
    ['9h', null],
    ['10h', null],
  ]);
  const differ = versionMarks(
    [
      { text: 'a', at: at(29, 9), model: 'm1' },
      { text: 'b', at: at(30, 10), model: 'm2' },
    ],
    6,
    format,
  );
  expect(differ.map((m) => [m.time, m.model])).toEqual([
    ['29/9h', 'm1'],
    ['30/10h', 'm2'],
  ]);
});

test('a version with no words of its own (the same text, or the start of another) shows none', () => {
  const marks = versionMarks([{ text: 'Hello there' }, { text: 'Hello there' }, { text: 'Hello' }], 6, format);
  expect(marks.map((m) => m.words)).toEqual(['', '', '']);
});
