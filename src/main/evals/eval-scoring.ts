import type { EvalRunRecord } from '../../shared/evals/index.ts';

/** The Wilson score interval of a pass rate at 95%: honest for few runs and for rates near 0 or 1. */
export function wilson(passes: number, runs: number, z = 1.96): { low: number; high: number } {
  if (runs === 0) return { low: 0, high: 1 };
  const p = passes / runs;
  const z2 = z * z;
  const centre = p + z2 / (2 * runs);
  const margin = z * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs));
  const denominator = 1 + z2 / runs;
  return { low: Math.max(0, (centre - margin) / denominator), high: Math.min(1, (centre + margin) / denominator) };
}

export interface TaskScore {
  taskId: string;
  model: string;
  runs: number;
  passes: number;
  passRate: number;
  /** At least one of the runs passed (pass@k with k = runs). */
  passAtK: boolean;
  /** Every run passed (pass^k): what a user who runs it once can count on. */
  passHatK: boolean;
  interval: { low: number; high: number };
  /** Neither always passes nor always fails. */
  flaky: boolean;
  meanScore: number;
  meanCost: number;
  meanMs: number;
}

export interface ModelScore {
  model: string;
  tasks: number;
  runs: number;
  passes: number;
  passRate: number;
  interval: { low: number; high: number };
  /** Tasks every run of which passed. */
  tasksAlwaysPassing: number;
  flakyTasks: number;
  meanCostPerRun: number;
  /** Total cost over passed runs; null when none passed. */
  costPerPass: number | null;
  meanMs: number;
  cost: number;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Per task and model, and per model: pass rates with their intervals, pass@k, pass^k, flakiness, cost and time. */
export function scoreRuns(records: readonly EvalRunRecord[]): { tasks: TaskScore[]; models: ModelScore[] } {
  const byTask = new Map<string, EvalRunRecord[]>();
  for (const r of records) {
    const key = `${r.model}\u0000${r.taskId}`;
    let list = byTask.get(key);
    if (!list) byTask.set(key, (list = []));
    list.push(r);
  }
  const tasks: TaskScore[] = [...byTask.values()].map((runs) => {
    const passes = runs.filter((r) => r.passed).length;
    return {
      taskId: runs[0]!.taskId,
      model: runs[0]!.model,
      runs: runs.length,
      passes,
      passRate: passes / runs.length,
      passAtK: passes > 0,
      passHatK: passes === runs.length,
      interval: wilson(passes, runs.length),
      flaky: passes > 0 && passes < runs.length,
      meanScore: mean(runs.map((r) => r.score)),
      meanCost: mean(runs.map((r) => r.cost)),
      meanMs: mean(runs.map((r) => r.ms)),
    };
  });
  const models = [...new Set(records.map((r) => r.model))].map((model): ModelScore => {
    const runs = records.filter((r) => r.model === model);
    const mine = tasks.filter((t) => t.model === model);
    const passes = runs.filter((r) => r.passed).length;
    const cost = runs.reduce((a, r) => a + r.cost, 0);
    return {
      model,
      tasks: mine.length,
      runs: runs.length,
      passes,
      passRate: passes / runs.length,
      interval: wilson(passes, runs.length),
      tasksAlwaysPassing: mine.filter((t) => t.passHatK).length,
      flakyTasks: mine.filter((t) => t.flaky).length,
      meanCostPerRun: cost / runs.length,
      costPerPass: passes > 0 ? cost / passes : null,
      meanMs: mean(runs.map((r) => r.ms)),
      cost,
    };
  });
  return { tasks, models };
}
