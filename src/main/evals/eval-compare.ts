import type { EvalRunRecord } from '../../shared/evals/index.ts';
import { scoreRuns, type TaskScore } from './eval-scoring.ts';

export interface TaskChange {
  taskId: string;
  model: string;
  before: { passes: number; runs: number } | null;
  after: { passes: number; runs: number } | null;
  /** `newly failing`: every run passed before and some failed after; `newly passing`: the reverse. */
  change: 'newly failing' | 'newly passing' | 'worse' | 'better' | 'same' | 'added' | 'removed';
  /** The two pass rates' 95% intervals do not overlap: more than the runs' noise. */
  beyondNoise: boolean;
  costDelta: number;
  msDelta: number;
}

export interface ModelChange {
  model: string;
  before: number | null;
  after: number | null;
  beyondNoise: boolean;
}

export interface EvalComparison {
  tasks: TaskChange[];
  models: ModelChange[];
  /** A task newly failing, or a model's pass rate down by more than the threshold. */
  regression: boolean;
}

const key = (t: { taskId: string; model: string }) => `${t.model}\u0000${t.taskId}`;
const counts = (t: TaskScore | undefined) => (t ? { passes: t.passes, runs: t.runs } : null);
const apart = (a: { low: number; high: number }, b: { low: number; high: number }) => a.high < b.low || b.high < a.low;

function changeOf(a: TaskScore, b: TaskScore): TaskChange['change'] {
  if (a.passHatK && !b.passHatK) return 'newly failing';
  if (!a.passAtK && b.passAtK && b.passHatK) return 'newly passing';
  if (b.passRate < a.passRate) return 'worse';
  if (b.passRate > a.passRate) return 'better';
  return 'same';
}

/** What changed from eval A to eval B, task by task and model by model; `threshold` is a pass-rate drop (0 to 1). */
export function compareEvals(a: readonly EvalRunRecord[], b: readonly EvalRunRecord[], threshold = 0.05): EvalComparison {
  const before = scoreRuns(a);
  const after = scoreRuns(b);
  const old = new Map(before.tasks.map((t) => [key(t), t]));
  const now = new Map(after.tasks.map((t) => [key(t), t]));
  const tasks: TaskChange[] = [];
  for (const k of new Set([...old.keys(), ...now.keys()])) {
    const x = old.get(k);
    const y = now.get(k);
    tasks.push({
      taskId: (x ?? y)!.taskId,
      model: (x ?? y)!.model,
      before: counts(x),
      after: counts(y),
      change: !x ? 'added' : !y ? 'removed' : changeOf(x, y),
      beyondNoise: x !== undefined && y !== undefined && apart(x.interval, y.interval),
      costDelta: (y?.meanCost ?? 0) - (x?.meanCost ?? 0),
      msDelta: (y?.meanMs ?? 0) - (x?.meanMs ?? 0),
    });
  }
  const models = [...new Set([...before.models, ...after.models].map((m) => m.model))].map((model): ModelChange => {
    const x = before.models.find((m) => m.model === model);
    const y = after.models.find((m) => m.model === model);
    return { model, before: x?.passRate ?? null, after: y?.passRate ?? null, beyondNoise: x !== undefined && y !== undefined && apart(x.interval, y.interval) };
  });
  const regression =
    tasks.some((t) => t.change === 'newly failing') || models.some((m) => m.before !== null && m.after !== null && m.before - m.after > threshold);
  return { tasks, models, regression };
}
