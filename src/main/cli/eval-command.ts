import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { EvalRunRecord } from '../../shared/evals/index.ts';
import { AmberError } from '../errors.ts';
import { EvalLibrary, htmlReport, loadSuite, markdownReport, parseModelName, readRecords, runEval, scoreRuns, writeReport } from '../evals/index.ts';
import { UnattendedApprovals } from '../policy/index.ts';
import type { CliCommand } from './cli-command.ts';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * `amber eval SUITE --model P/M [--model …]`: every task of the suite for every model, `--repeat` times,
 * through the same core as the window, each run a conversation of its own. Unattended: a call that would
 * need a person is denied and counted, unless the suite's `allow` covers it. Writes `runs.jsonl` as it
 * goes, then `report.json`, `report.md` and a self-contained `report.html` in `--out DIR` (default: the data folder's evals/<id>); Ctrl+C
 * stops after the runs under way and keeps what finished; `--resume` with the same --out completes it.
 * Exits 1 when a run could not be scored as passing.
 */
export const evalCommand: CliCommand = {
  words: ['eval'],
  args: ['SUITE'],
  options: ['model PROVIDER/MODEL', 'judge PROVIDER/MODEL', 'repeat N', 'concurrency K', 'out DIR', 'resume'],
  summary: 'Run a suite of tasks with one or more models and score them; writes JSON and Markdown reports.',
  core: (flags, [suitePath]) => ({
    startPlugins: false,
    unattended: new UnattendedApprovals(suitePath ? (loadSuite(resolve(flags.cwd, suitePath)).suite.allow ?? []) : []),
  }),
  async run(app, [suitePath], flags) {
    const loaded = loadSuite(resolve(flags.cwd, suitePath!));
    if (flags.models.length === 0) throw new AmberError('invalid_input', 'Name at least one model to evaluate, as in --model openai/gpt-5.');
    const models = flags.models.map(parseModelName);
    if (flags.judge !== undefined) parseModelName(flags.judge);
    if (flags.resume && flags.out === undefined) throw new AmberError('invalid_input', '--resume needs the --out DIR of the eval to complete.');
    const done = flags.resume ? readRecords(resolve(flags.cwd, flags.out!)) : [];
    const evalId = done[0]?.evalId ?? `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
    const outDir = flags.out !== undefined ? resolve(flags.cwd, flags.out) : join(app.dataDir, 'evals', evalId);
    await app.plugins.start();
    for (const m of models)
      if (!app.plugins.registries.providers.get(m.provider))
        throw new AmberError('unavailable', `No provider '${m.provider}' is set up; set it up in the app first (the models are named provider/model).`);

    new EvalLibrary(app.dataDir).begin(outDir, {
      evalId,
      suite: loaded.suite.name,
      models: models.map((m) => `${m.provider}/${m.modelId}`),
      startedAt: Date.now(),
    });
    const controller = new AbortController();
    const onInterrupt = () => {
      flags.progress('Stopping: the runs under way are ended; what finished is kept (complete it with --resume).');
      controller.abort();
    };
    process.once('SIGINT', onInterrupt);
    const started = Date.now();
    let passing = 0;
    let cost = 0;
    let records: EvalRunRecord[];
    try {
      records = await runEval({
        app,
        loaded,
        models,
        outDir,
        evalId,
        done,
        signal: controller.signal,
        ...(flags.repeat !== undefined ? { repeat: flags.repeat } : {}),
        ...(flags.judge !== undefined ? { judge: flags.judge } : {}),
        ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
        onRecord: (r, finished, total) => {
          if (r.passed) passing++;
          cost += r.cost;
          const fresh = finished - done.length;
          const left = fresh > 0 ? ((Date.now() - started) / fresh) * (total - finished) : 0;
          const bar = '#'.repeat(Math.round((finished / total) * 20)).padEnd(20, '.');
          flags.progress(
            `[${bar}] ${finished}/${total} · ${r.taskId} · ${r.model} #${r.attempt}: ${r.passed ? 'passed' : `failed (${r.end})`} · ${passing} passing · $${cost.toFixed(4)} · ~${Math.ceil(left / 1000)} s left`,
          );
        },
      });
    } finally {
      process.off('SIGINT', onInterrupt);
    }
    const scores = scoreRuns(records);
    const title = `Eval of ${loaded.suite.name}`;
    writeReport(outDir, 'report.json', `${JSON.stringify({ evalId, suite: loaded.suite.name, models: scores.models, tasks: scores.tasks }, null, 2)}\n`);
    const md = writeReport(outDir, 'report.md', markdownReport(title, records));
    writeReport(outDir, 'report.html', htmlReport(title, records));
    const interrupted = controller.signal.aborted;
    const lines = [`${title}: ${records.length} runs${interrupted ? ' (interrupted: complete it with --resume)' : ''}.`, ''];
    const width = Math.max(5, ...scores.models.map((m) => m.model.length));
    lines.push(`${'Model'.padEnd(width)}  Pass rate        95% interval  Always  Flaky  Cost/run   Time/run`);
    for (const m of scores.models)
      lines.push(
        `${m.model.padEnd(width)}  ${`${pct(m.passRate)} (${m.passes}/${m.runs})`.padEnd(15)}  ${`${pct(m.interval.low)}–${pct(m.interval.high)}`.padEnd(12)}  ${`${m.tasksAlwaysPassing}/${m.tasks}`.padEnd(6)}  ${String(m.flakyTasks).padEnd(5)}  ${`$${m.meanCostPerRun.toFixed(4)}`.padEnd(9)}  ${(m.meanMs / 1000).toFixed(1)} s`,
      );
    lines.push('', `Reports: ${md}, with report.html, report.json and runs.jsonl beside it. Each run is a conversation you can open in the app.`);
    return {
      json: { evalId, outDir, interrupted, models: scores.models, tasks: scores.tasks },
      text: lines.join('\n'),
      exitCode: interrupted || records.some((r) => !r.passed) ? 1 : 0,
    };
  },
};
