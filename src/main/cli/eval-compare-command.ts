import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AmberError } from '../errors.ts';
import { compareEvals, readRecords } from '../evals/index.ts';
import type { CliCommand } from './cli-command.ts';

const counts = (c: { passes: number; runs: number } | null) => (c ? `${c.passes}/${c.runs}` : '—');
const pct = (x: number | null) => (x === null ? '—' : `${Math.round(x * 100)}%`);

/**
 * `amber eval compare RUN_A RUN_B`: what changed between two evals (their --out folders): tasks newly failing
 * and newly passing, pass rates per model, cost and time deltas, each flagged where the change is beyond the
 * runs' noise. Exits 1 on a regression (a task that always passed now fails sometimes, or a model's pass rate
 * down by more than 5 points), so it can gate CI.
 */
export const evalCompareCommand: CliCommand = {
  words: ['eval', 'compare'],
  args: ['RUN_A', 'RUN_B'],
  summary: 'Compare two evals: tasks newly failing or passing, pass rates and cost; exits 1 on a regression.',
  run(_app, [first, second], flags) {
    const read = (dir: string) => {
      const folder = resolve(flags.cwd, dir);
      if (!existsSync(join(folder, 'runs.jsonl')))
        throw new AmberError('not_found', `${folder} holds no eval (no runs.jsonl): name the --out folder of an eval.`);
      return readRecords(folder);
    };
    const result = compareEvals(read(first!), read(second!));
    const lines = ['Models:'];
    for (const m of result.models) lines.push(`  ${m.model}: ${pct(m.before)} → ${pct(m.after)}${m.beyondNoise ? ' (beyond the noise)' : ''}`);
    const listed = result.tasks.filter((t) => t.change !== 'same');
    lines.push('', listed.length === 0 ? 'No task changed.' : 'Tasks that changed:');
    for (const t of listed) {
      const cost = t.costDelta === 0 ? '' : `, cost ${t.costDelta > 0 ? '+' : '−'}$${Math.abs(t.costDelta).toFixed(4)} a run`;
      lines.push(`  ${t.change}: ${t.taskId} · ${t.model}: ${counts(t.before)} → ${counts(t.after)}${t.beyondNoise ? ' (beyond the noise)' : ''}${cost}`);
    }
    const newlyFailing = result.tasks.filter((t) => t.change === 'newly failing').length;
    if (!result.regression) lines.push('', 'No regression.');
    else if (newlyFailing > 0)
      lines.push('', `Regression: ${newlyFailing} task${newlyFailing === 1 ? '' : 's'} that always passed now fail${newlyFailing === 1 ? 's' : ''} sometimes.`);
    else lines.push('', "Regression: a model's pass rate fell by more than 5 points.");
    return { json: result, text: lines.join('\n'), exitCode: result.regression ? 1 : 0 };
  },
};
