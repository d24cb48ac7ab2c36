import type { EvalRunRecord } from '../../shared/evals/index.ts';
import { scoreRuns } from './eval-scoring.ts';

const pct = (x: number) => `${Math.round(x * 100)}%`;
const money = (x: number) => `$${x.toFixed(x < 1 ? 4 : 2)}`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The eval's report as Markdown: per model, then per task and model, then the runs that failed and why. */
export function markdownReport(title: string, records: readonly EvalRunRecord[]): string {
  const { models, tasks } = scoreRuns(records);
  const lines = [`# ${title}`, '', `${records.length} runs.`, '', '## Models', ''];
  lines.push('| Model | Pass rate | 95% interval | Tasks always passing | Flaky tasks | Cost per run | Cost per pass | Time per run |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const m of models)
    lines.push(
      `| ${m.model} | ${pct(m.passRate)} (${m.passes}/${m.runs}) | ${pct(m.interval.low)}–${pct(m.interval.high)} | ${m.tasksAlwaysPassing}/${m.tasks} | ${m.flakyTasks} | ${money(m.meanCostPerRun)} | ${m.costPerPass === null ? '—' : money(m.costPerPass)} | ${secs(m.meanMs)} |`,
    );
  lines.push('', '## Tasks', '', '| Task | Model | Passed | pass@k | pass^k | 95% interval | Flaky | Mean score |', '|---|---|---|---|---|---|---|---|');
  for (const t of tasks)
    lines.push(
      `| ${t.taskId} | ${t.model} | ${t.passes}/${t.runs} | ${t.passAtK ? 'yes' : 'no'} | ${t.passHatK ? 'yes' : 'no'} | ${pct(t.interval.low)}–${pct(t.interval.high)} | ${t.flaky ? 'flaky' : ''} | ${t.meanScore.toFixed(2)} |`,
    );
  const failed = records.filter((r) => !r.passed);
  if (failed.length > 0) {
    lines.push('', '## Failed runs', '');
    for (const r of failed) {
      const why =
        r.end !== 'done'
          ? `ended: ${r.end}${r.error ? ` (${r.error})` : ''}`
          : r.checks
              .filter((c) => !c.passed)
              .map((c) => `${c.type}: ${c.detail}`)
              .join('; ');
      lines.push(`- ${r.taskId} · ${r.model} · try ${r.attempt}: ${why} — conversation ${r.sessionId}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
