import { expect, test } from 'vitest';
import type { EvalRunRecord } from '../../shared/evals/index.ts';
import { scoreRuns, wilson } from './eval-scoring.ts';

const run = (taskId: string, model: string, passed: boolean, cost = 0.01, ms = 1000): EvalRunRecord => ({
  evalId: 'e',
  taskId,
  model,
  attempt: 1,
  sessionId: 's',
  end: 'done',
  passed,
  score: passed ? 1 : 0,
  checks: [],
  steps: 1,
  toolCalls: 0,
  denied: 0,
  tokensIn: 10,
  tokensOut: 5,
  cost,
  ms,
  firstTokenMs: null,
});

test('the Wilson interval: known values, and sensible at 0, all and no runs', () => {
  expect(wilson(8, 10).low).toBeCloseTo(0.490157, 5);
  expect(wilson(8, 10).high).toBeCloseTo(0.943319, 5);
  expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.27754, 4) });
  expect(wilson(2, 2).high).toBe(1);
  expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
});

test('a task that went from 3/3 to 2/3 stays visible: pass^k and flaky per task, not only the average', () => {
  const before = [run('a', 'm', true), run('a', 'm', true), run('a', 'm', true), run('b', 'm', false), run('b', 'm', false), run('b', 'm', false)];
  const after = [run('a', 'm', true), run('a', 'm', false), run('a', 'm', true), run('b', 'm', false), run('b', 'm', true), run('b', 'm', false)];
  expect(scoreRuns(before).models[0]!.passRate).toBe(0.5);
  expect(scoreRuns(after).models[0]!.passRate).toBe(0.5);
  const a = scoreRuns(after).tasks.find((t) => t.taskId === 'a')!;
  expect(a).toMatchObject({ passes: 2, runs: 3, passAtK: true, passHatK: false, flaky: true });
  expect(scoreRuns(before).tasks.find((t) => t.taskId === 'a')).toMatchObject({ passHatK: true, flaky: false });
  expect(scoreRuns(after).models[0]).toMatchObject({ tasksAlwaysPassing: 0, flakyTasks: 2 });
});

test('cost per passed run, and none when nothing passed', () => {
  const { models } = scoreRuns([run('a', 'x', true, 0.1), run('b', 'x', false, 0.3), run('a', 'y', false, 0.2)]);
  expect(models.find((m) => m.model === 'x')!.costPerPass).toBeCloseTo(0.4, 10);
  expect(models.find((m) => m.model === 'x')!.meanCostPerRun).toBeCloseTo(0.2, 10);
  expect(models.find((m) => m.model === 'y')!.costPerPass).toBeNull();
});
