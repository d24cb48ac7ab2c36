import { z } from 'zod';
import { EvalRunRecord } from '../evals/index.ts';

const Interval = z.object({ low: z.number(), high: z.number() });

/** An eval as the Evals view lists it. */
export const EvalListing = z.object({
  evalId: z.string(),
  suite: z.string(),
  models: z.array(z.string()),
  startedAt: z.number(),
  dir: z.string(),
  runs: z.number(),
  passes: z.number(),
});
export type EvalListing = z.infer<typeof EvalListing>;

export const EvalModelScore = z.object({
  model: z.string(),
  tasks: z.number(),
  runs: z.number(),
  passes: z.number(),
  passRate: z.number(),
  interval: Interval,
  tasksAlwaysPassing: z.number(),
  flakyTasks: z.number(),
  meanCostPerRun: z.number(),
  costPerPass: z.number().nullable(),
  meanMs: z.number(),
  cost: z.number(),
});

export const EvalTaskScore = z.object({
  taskId: z.string(),
  model: z.string(),
  runs: z.number(),
  passes: z.number(),
  passRate: z.number(),
  passAtK: z.boolean(),
  passHatK: z.boolean(),
  interval: Interval,
  flaky: z.boolean(),
  meanScore: z.number(),
  meanCost: z.number(),
  meanMs: z.number(),
});

/** One eval: its scores per model and per task, and one page of its runs. */
export const EvalDetail = EvalListing.omit({ runs: true, passes: true, models: true }).extend({
  models: z.array(EvalModelScore),
  tasks: z.array(EvalTaskScore),
  total: z.number(),
  runs: z.array(EvalRunRecord),
});
export type EvalDetail = z.infer<typeof EvalDetail>;
