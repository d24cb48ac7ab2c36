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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A horizontal bar per model: the pass rate, its 95% interval as a whisker, drawn in SVG. */
function passRateChart(models: ReturnType<typeof scoreRuns>['models']): string {
  const row = 28;
  const label = 220;
  const width = 360;
  const height = models.length * row + 24;
  const bars = models
    .map((m, i) => {
      const y = i * row + 6;
      const x = (v: number) => label + v * width;
      return [
        `<text x="${label - 8}" y="${y + 13}" text-anchor="end">${escapeHtml(m.model)}</text>`,
        `<rect x="${label}" y="${y}" width="${width}" height="16" class="track"/>`,
        `<rect x="${label}" y="${y}" width="${m.passRate * width}" height="16" class="fill"/>`,
        `<line x1="${x(m.interval.low)}" x2="${x(m.interval.high)}" y1="${y + 8}" y2="${y + 8}" class="whisker"/>`,
        `<text x="${label + width + 8}" y="${y + 13}">${pct(m.passRate)} (${pct(m.interval.low)}–${pct(m.interval.high)})</text>`,
      ].join('');
    })
    .join('');
  const ticks = [0, 0.5, 1].map((t) => `<text x="${label + t * width}" y="${height - 4}" text-anchor="middle" class="tick">${pct(t)}</text>`).join('');
  return `<svg role="img" aria-label="Pass rate per model with its 95% interval" width="${label + width + 140}" height="${height}">${bars}${ticks}</svg>`;
}

/**
 * The eval's report as one self-contained HTML file (no script, no outside file): the pass-rate chart, the
 * models' and the tasks' tables, and the failed runs with why.
 */
export function htmlReport(title: string, records: readonly EvalRunRecord[]): string {
  const { models, tasks } = scoreRuns(records);
  const cell = (v: string) => `<td>${escapeHtml(v)}</td>`;
  const modelRows = models
    .map(
      (m) =>
        `<tr><th scope="row">${escapeHtml(m.model)}</th>${cell(`${pct(m.passRate)} (${m.passes}/${m.runs})`)}${cell(`${pct(m.interval.low)}–${pct(m.interval.high)}`)}${cell(`${m.tasksAlwaysPassing}/${m.tasks}`)}${cell(String(m.flakyTasks))}${cell(money(m.meanCostPerRun))}${cell(m.costPerPass === null ? '—' : money(m.costPerPass))}${cell(secs(m.meanMs))}</tr>`,
    )
    .join('');
  const taskRows = tasks
    .map(
      (t) =>
        `<tr><th scope="row">${escapeHtml(t.taskId)}</th>${cell(t.model)}${cell(`${t.passes}/${t.runs}`)}${cell(t.passAtK ? 'yes' : 'no')}${cell(t.passHatK ? 'yes' : 'no')}${cell(`${pct(t.interval.low)}–${pct(t.interval.high)}`)}${cell(t.flaky ? 'flaky' : '')}</tr>`,
    )
    .join('');
  const failed = records
    .filter((r) => !r.passed)
    .map((r) => {
      const why =
        r.end !== 'done'
          ? `ended: ${r.end}${r.error ? ` (${r.error})` : ''}`
          : r.checks
              .filter((c) => !c.passed)
              .map((c) => `${c.type}: ${c.detail}`)
              .join('; ');
      return `<li><strong>${escapeHtml(`${r.taskId} · ${r.model} · try ${r.attempt}`)}</strong>: ${escapeHtml(why)} <span class="muted">(conversation ${escapeHtml(r.sessionId)})</span></li>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1000px; padding: 0 16px; color: #1f1d1a; background: #fffdf9; }
@media (prefers-color-scheme: dark) { body { color: #eee8df; background: #1c1a17; } .track { fill: #3a3631; } th, td { border-color: #3a3631; } }
table { border-collapse: collapse; width: 100%; margin: 8px 0 20px; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e5dfd5; }
thead th { font-weight: 500; opacity: 0.75; }
svg text { font: 12px system-ui, sans-serif; fill: currentColor; }
.track { fill: #eee7dc; } .fill { fill: #c8781e; } .whisker { stroke: currentColor; stroke-width: 2; } .tick { opacity: 0.6; }
.muted { opacity: 0.7; }
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>${records.length} runs.</p>
<h2>Pass rate per model</h2>
${passRateChart(models)}
<h2>Models</h2>
<table><thead><tr><th>Model</th><th>Pass rate</th><th>95% interval</th><th>Tasks always passing</th><th>Flaky tasks</th><th>Cost per run</th><th>Cost per pass</th><th>Time per run</th></tr></thead><tbody>${modelRows}</tbody></table>
<h2>Tasks</h2>
<table><thead><tr><th>Task</th><th>Model</th><th>Passed</th><th>pass@k</th><th>pass^k</th><th>95% interval</th><th>Flaky</th></tr></thead><tbody>${taskRows}</tbody></table>
${failed ? `<h2>Failed runs</h2><ul>${failed}</ul>` : ''}
</body></html>
`;
}
