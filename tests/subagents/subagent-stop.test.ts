// Stop: on the parent every child ends within 2 s (their tool processes included) and what finished is kept;
// Stop on one child leaves its siblings going; a child past its wall time is stopped as timed out.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SubagentService } from '../../src/main/subagents/index.ts';
import { isToolResult, type ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { type SubagentView, TaskDetails } from '../../src/shared/subagents/index.ts';
import { isGone } from '../plugins-bundled/bundled-runtime.ts';
import { call, MODEL, openSubagentRig, say, type SubagentRig, task, testTools } from './subagent-rig.ts';

let rig: SubagentRig;
beforeEach(async () => {
  rig = await openSubagentRig();
});
afterEach(async () => {
  await rig.close();
});

const taskResult = (): ToolResultMessage =>
  rig.app.sessions
    .path(rig.parentId)
    .flatMap((e) => (e.type === 'message' && isToolResult(e.message) && e.message.toolName === 'task' ? [e.message] : []))
    .at(-1)!;
const rows = () => TaskDetails.parse(taskResult()['details']).subagents;

/** Resolves once the rows the window heard satisfy `predicate`. */
function untilRows(predicate: (heard: Map<number, SubagentView>) => boolean): Promise<void> {
  const latest = new Map<number, SubagentView>();
  return new Promise((resolve) => {
    const off = rig.app.subagents.onDidChange((view) => {
      latest.set(view.index, view);
      if (predicate(latest)) {
        off.dispose();
        resolve();
      }
    });
  });
}

test('Stop on the parent with four children running ends them all within 2 s, their processes gone, and keeps the one that finished', async () => {
  rig.set('agent.subagents.maxParallel', 5);
  const tasks = ['quick', 'w1', 'w2', 'w3', 'w4'].map((d) => ({ description: d, prompt: d }));
  rig.route((r) => {
    if (!r.child) return r.turns === 0 ? task(tasks) : say('all done');
    if (r.prompt === 'quick') return say('quick answer');
    return r.turns === 0 ? call('wait', {}) : say('waited');
  });
  const ready = untilRows((heard) => heard.get(0)?.state === 'done' && [1, 2, 3, 4].every((i) => (heard.get(i)?.toolCalls ?? 0) > 0));
  const run = rig.app.agent.start(rig.parentId, 'go');
  await ready;
  // Each waiting child's tool runs a real process until its call is stopped.
  await expect.poll(() => rig.pids.length).toBe(4);
  expect(rig.app.subagents.views(rig.parentId).filter((v) => v.state === 'running')).toHaveLength(4);

  const stoppedAt = performance.now();
  expect(rig.app.agent.abort(rig.parentId)).toBe(true);
  const ended = await run.done;
  const took = performance.now() - stoppedAt;
  expect(ended.reason).toBe('aborted');
  expect(took).toBeLessThan(2000);
  for (const pid of rig.pids) await expect.poll(() => isGone(pid), { timeout: 2000 - Math.min(took, 1900) }).toBe(true);

  // The finished child's reply reached the transcript; the others say they were stopped.
  expect(rows().map((v) => v.state)).toEqual(['done', 'stopped', 'stopped', 'stopped', 'stopped']);
  const text = taskResult()
    .content.map((c) => (c.type === 'text' ? c.text : ''))
    .join('');
  expect(text).toContain('quick answer');
  expect(taskResult().isError).toBe(false);
  expect(rig.app.subagents.views(rig.parentId)).toEqual([]);
  for (const v of rows()) expect(rig.app.agent.isRunning(v.childSessionId!)).toBe(false);
});

test('Stop on one child (its row) stops it alone: its sibling finishes and the parent goes on', async () => {
  rig.route(async (r) => {
    if (!r.child)
      return r.turns === 0
        ? task([
            { description: 'waiter', prompt: 'W' },
            { description: 'slow', prompt: 'S' },
          ])
        : say('all done');
    if (r.prompt === 'W') return r.turns === 0 ? call('wait', {}) : say('waited');
    await new Promise((resolve) => setTimeout(resolve, 400));
    return say('slow answer');
  });
  const waiting = untilRows((heard) => (heard.get(0)?.toolCalls ?? 0) > 0);
  const run = rig.app.agent.start(rig.parentId, 'go');
  await waiting;
  await expect.poll(() => rig.pids.length).toBe(1);
  const waiter = rig.app.subagents.views(rig.parentId)[0]!;
  expect(await rig.call('subagents.stop', { childSessionId: waiter.childSessionId })).toEqual({ stopped: true });
  expect((await run.done).reason).toBe('stop');
  expect(rows().map((v) => [v.state, v.reason])).toEqual([
    ['stopped', 'The user stopped it.'],
    ['done', undefined],
  ]);
  expect(isGone(rig.pids[0]!)).toBe(true);
  expect(await rig.call('subagents.stop', { childSessionId: waiter.childSessionId })).toEqual({ stopped: false });
});

test('a child whose model hangs is stopped at its wall time as timed out, naming the limit; its sibling is kept', async () => {
  rig.set('agent.subagents.wallTimeMinutes', 1);
  rig.route((r) => (r.prompt === 'H' ? { ...say('never'), stallAfter: 1 } : say('quick answer')));
  const service = new SubagentService({
    store: rig.app.sessions,
    settings: rig.app.settings,
    resolveProvider: rig.resolveProvider,
    tools: testTools(rig.pids),
    gate: rig.app.policy,
    systemPrompt: () => 'base',
    parentModel: () => MODEL,
    minuteMs: 300,
  });
  try {
    const started = performance.now();
    const out = await service.runTask(
      {
        tasks: [
          { description: 'hangs', prompt: 'H' },
          { description: 'quick', prompt: 'Q' },
        ],
        mode: 'parallel',
      },
      { sessionId: rig.parentId, workspaceRoot: rig.workspace, toolCallId: 'call_t', signal: new AbortController().signal, onUpdate: () => {} },
    );
    expect(performance.now() - started).toBeLessThan(1500);
    const [hangs, quick] = TaskDetails.parse(out.details).subagents;
    expect(hangs).toMatchObject({ state: 'timed_out' });
    expect(hangs!.reason).toMatch(/agent\.subagents\.wallTimeMinutes/);
    expect(quick).toMatchObject({ state: 'done' });
    expect(out.content[0]!.text).toContain('quick answer');
  } finally {
    await service.dispose();
  }
});
