import { describe, expect, test } from 'vitest';
import { type CrashRules, crashVerdict } from './crash-verdict.ts';

const rules: CrashRules = { limit: 3, windowMs: 5 * 60_000, backoffMs: 1000 };
const how = 'exited with code 1';

describe('crashVerdict', () => {
  test.each([
    { name: 'a first crash restarts after the base delay', previous: [], now: 10_000, restartInMs: 1000, crashes: [10_000], reason: 'Restarting in 1 s.' },
    {
      name: 'a second crash in the window doubles the delay',
      previous: [5_000],
      now: 10_000,
      restartInMs: 2000,
      crashes: [5_000, 10_000],
      reason: 'Restarting in 2 s.',
    },
    {
      name: 'the limit reached within the window leaves it Failed',
      previous: [1_000, 5_000],
      now: 10_000,
      restartInMs: null,
      crashes: [1_000, 5_000, 10_000],
      reason: 'It crashed 3 times in 5 minutes, so it stays off until you enable it again.',
    },
    {
      name: 'crashes older than the window are forgotten',
      previous: [0, 1_000],
      now: 400_000,
      restartInMs: 1000,
      crashes: [400_000],
      reason: 'Restarting in 1 s.',
    },
    {
      name: 'a crash exactly one window after an earlier one no longer counts it',
      previous: [100_000],
      now: 400_000,
      restartInMs: 1000,
      crashes: [400_000],
      reason: 'Restarting in 1 s.',
    },
  ])('$name', ({ previous, now, restartInMs, crashes, reason }) => {
    const verdict = crashVerdict(previous, now, how, rules, true);
    expect(verdict).toEqual({ crashes, restartInMs, reason: `The plugin's process ${how}. ${reason}` });
  });

  test('delays under a second are said in milliseconds', () => {
    expect(crashVerdict([], 0, how, { ...rules, backoffMs: 200 }, true)).toMatchObject({
      restartInMs: 200,
      reason: `The plugin's process ${how}. Restarting in 200 ms.`,
    });
    expect(crashVerdict([0], 1, how, { ...rules, backoffMs: 300 }, true)).toMatchObject({
      restartInMs: 600,
      reason: `The plugin's process ${how}. Restarting in 600 ms.`,
    });
  });

  test('a plugin that may not restart is Failed with the bare sentence, and the crash still counts', () => {
    expect(crashVerdict([5_000], 10_000, how, rules, false)).toEqual({ crashes: [5_000, 10_000], restartInMs: null, reason: `The plugin's process ${how}.` });
  });

  test('a limit of one never restarts', () => {
    expect(crashVerdict([], 0, how, { ...rules, limit: 1 }, true)).toMatchObject({
      restartInMs: null,
      reason: expect.stringContaining('It crashed 1 times in 5 minutes'),
    });
  });
});
