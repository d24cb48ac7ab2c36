// `npm run bench -- subagents`: what a child agent costs beyond its model, and how fast Stop quiets a run.
//   child_overhead_p50_ms — one task call with one child (its conversation made, linked, run, its result
//                           written) minus the same prompt run as a conversation's turn of its own; both talk to
//                           the loopback model server, which answers at once, so the model's time is the same in
//                           both and drops out. Target: at most 50 ms.
//   stop_to_quiet_p50_ms / max — Stop on a parent whose four children are each running a real process, until
//                           the run has ended and every one of those processes is gone. Target: 2,000 ms.
// The two kinds of run alternate so both see the same load. The last line is one JSON object.
import { performance } from 'node:perf_hooks';
import { call, openSubagentRig, say, task } from '../tests/subagents/subagent-rig.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const STOPS = Number(process.env.BENCH_STOPS ?? 10);
const PROMPT = 'Find every place that parses a date and say which file it is in.';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

const rig = await openSubagentRig();
try {
  const { app } = rig;
  rig.set('agent.subagents.maxPerTurn', 256);
  rig.route((r) => (r.prompt.startsWith('wait') ? (r.turns === 0 ? call('wait', {}) : say('waited')) : say('Dates are parsed in src/dates.ts.')));
  const execution = (toolCallId: string) => ({
    sessionId: rig.parentId,
    workspaceRoot: rig.workspace,
    toolCallId,
    signal: new AbortController().signal,
    onUpdate: () => {},
  });
  const childMs: number[] = [];
  const turnMs: number[] = [];
  for (let i = 0; i < RUNS + 10; i++) {
    // A child: the task tool's whole path for one task, as the dispatcher calls it.
    let t0 = performance.now();
    const out = await app.subagents.runTask({ tasks: [{ description: `child ${i}`, prompt: PROMPT }] }, execution(`call_${i}`));
    const child = performance.now() - t0;
    if (out.isError) throw new Error(`The child failed: ${JSON.stringify(out.content)}`);
    // The same prompt as a turn of its own, in a conversation of its own.
    t0 = performance.now();
    const session = app.sessions.create({ title: `turn ${i}`, cwd: rig.workspace });
    const ended = await app.agent.prompt(session.id, PROMPT);
    const turn = performance.now() - t0;
    if (ended.reason !== 'stop') throw new Error(`The turn ended with ${ended.reason}.`);
    // The first runs warm the code paths up.
    if (i >= 10) {
      childMs.push(child);
      turnMs.push(turn);
    }
  }
  const overhead = childMs.map((c, i) => c - turnMs[i]!);

  // Stop with four children running a real process each.
  const stopMs: number[] = [];
  rig.route((r) => {
    if (!r.child) return r.sinceUser === 0 ? task(['wait 1', 'wait 2', 'wait 3', 'wait 4'].map((p) => ({ description: p, prompt: p }))) : say('ok');
    return r.turns === 0 ? call('wait', {}) : say('waited');
  });
  for (let i = 0; i < STOPS; i++) {
    const session = app.sessions.create({ title: `stop ${i}`, cwd: rig.workspace });
    const before = rig.pids.length;
    const run = app.agent.start(session.id, 'go');
    const deadline = Date.now() + 10_000;
    while (rig.pids.length < before + 4 || app.subagents.views(session.id).some((v) => v.toolCalls === 0)) {
      if (Date.now() > deadline) throw new Error('The four children did not start their processes.');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const pids = rig.pids.slice(before);
    const t0 = performance.now();
    app.agent.abort(session.id);
    await run.done;
    while (!pids.every(isGone)) await new Promise((resolve) => setTimeout(resolve, 1));
    stopMs.push(performance.now() - t0);
  }

  const result = {
    runs: childMs.length,
    child_p50_ms: round(percentile(childMs, 50)),
    turn_p50_ms: round(percentile(turnMs, 50)),
    child_overhead_p50_ms: round(percentile(overhead, 50)),
    child_overhead_p90_ms: round(percentile(overhead, 90)),
    overhead_target_ms: 50,
    stops: stopMs.length,
    stop_to_quiet_p50_ms: round(percentile(stopMs, 50)),
    stop_to_quiet_max_ms: round(Math.max(...stopMs)),
    stop_target_ms: 2000,
  };
  console.log(`a child over its own turn: p50 ${result.child_overhead_p50_ms} ms (child ${result.child_p50_ms} ms, turn ${result.turn_p50_ms} ms)`);
  console.log(`Stop to quiet with 4 children: p50 ${result.stop_to_quiet_p50_ms} ms, max ${result.stop_to_quiet_max_ms} ms`);
  console.log(JSON.stringify({ ...result, within_target: result.child_overhead_p50_ms <= 50 && result.stop_to_quiet_max_ms <= 2000 }));
} finally {
  await rig.close();
}
