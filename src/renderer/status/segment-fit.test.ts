import { expect, test } from 'vitest';
import { fitSegments, MIN_CUT_PX } from './segment-fit.ts';

test('every segment shows when the line is wide enough, with no overflow', () => {
  expect(fitSegments([100, 80, 60], 240, 30)).toEqual({ shown: 3, lastWidth: null });
});

test('a narrow line keeps the highest priorities, cuts the next one short and sends the rest to the overflow', () => {
  // 200 px, 30 for the overflow button: 100 fits, then 70 px are left for the 80 px segment.
  expect(fitSegments([100, 80, 60], 200, 30)).toEqual({ shown: 2, lastWidth: 70 });
});

test('a cut that would leave too little moves the segment to the overflow instead', () => {
  expect(fitSegments([100, 80, 60], 100 + 30 + MIN_CUT_PX - 1, 30)).toEqual({ shown: 1, lastWidth: null });
  expect(fitSegments([100], 20, 30)).toEqual({ shown: 0, lastWidth: null });
});
