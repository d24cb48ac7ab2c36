import { expect, test } from 'vitest';
import type { EvalRunRecord } from '../../shared/evals/index.ts';
import { compareEvals } from './eval-compare.ts';

const runs = (taskId: string, model: string, pattern: string, cost = 0.01): EvalRunRecord[] =>
  [...pattern].map((p, i) => ({
    evalId: 'e',
    taskId,
    model,
    attempt: i + 1,
    sessionId: `s${i}`,
    end: 'done',
    passed: p === '1',
    score: p === '1' ? 1 : 0,
    checks: [],
    steps: 1,
    toolCalls: 0,
    denied: 0,
    tokensIn: 0,
    tokensOut: 0,
    cost,
    ms: 100,
    firstTokenMs: null,
  }));

test('a task that always passed and now fails sometimes is a regression, even when the average holds', () => {
  const a = [...runs('edit', 'm', '111'), ...runs('fix', 'm', '000')];
  const b = [...runs('edit', 'm', '110'), ...runs('fix', 'm', '111', 0.02)];
  const result = compareEvals(a, b);
  expect(result.tasks.find((t) => t.taskId === 'edit')).toMatchObject({
    change: 'newly failing',
    before: { passes: 3, runs: 3 },
    after: { passes: 2, runs: 3 },
  });
  expect(result.tasks.find((t) => t.taskId === 'fix')).toMatchObject({ change: 'newly passing', costDelta: expect.closeTo(0.01, 10) });
  expect(result.regression).toBe(true);
});

test('beyond the noise only where the intervals part; the same results are no regression', () => {
  const a = runs('t', 'm', '1111111111');
  expect(compareEvals(a, runs('t', 'm', '0000000000')).tasks[0]).toMatchObject({ beyondNoise: true, change: 'newly failing' });
  expect(compareEvals(runs('t', 'm', '110'), runs('t', 'm', '100')).tasks[0]).toMatchObject({ beyondNoise: false, change: 'worse' });
  expect(compareEvals(a, a)).toMatchObject({ regression: false, tasks: [{ change: 'same' }] });
  // A model's pass rate down by more than the threshold, no task newly failing.
  const flaky = [...runs('x', 'm', '1100000000')];
  expect(compareEvals(runs('x', 'm', '1111100000'), flaky).regression).toBe(true);
  expect(compareEvals(runs('x', 'm', '1111100000'), flaky, 0.5).regression).toBe(false);
});
