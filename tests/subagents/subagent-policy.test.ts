// A child agent can never do more than its parent conversation may: the same mode, stored rules and sandbox,
// and its questions come to the same window, labelled with its description.
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { pluginToolSource } from '../../src/main/agent-bridge/index.ts';
import { loadShellParser } from '../../src/main/policy/index.ts';
import type { ApprovalQuestion } from '../../src/shared/agent/index.ts';
import { isToolResult, type ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { TaskDetails } from '../../src/shared/subagents/index.ts';
import { type BundledRuntime, startBundled } from '../plugins-bundled/bundled-runtime.ts';
import { call, openSubagentRig, say, type SubagentRig, task } from './subagent-rig.ts';

let rig: SubagentRig | undefined;
let runtime: BundledRuntime | undefined;
beforeAll(() => loadShellParser());
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  await runtime?.close();
  runtime = undefined;
});

const rowsOf = (r: SubagentRig) => {
  const result = r.app.sessions
    .path(r.parentId)
    .flatMap((e) => (e.type === 'message' && isToolResult(e.message) && e.message.toolName === 'task' ? [e.message] : []))
    .at(-1)!;
  return TaskDetails.parse(result['details']).subagents;
};
/** The tool results of a child's conversation. */
const childResults = (r: SubagentRig, childId: string): ToolResultMessage[] =>
  r.app.sessions.path(childId).flatMap((e) => (e.type === 'message' && isToolResult(e.message) ? [e.message] : []));
const textOf = (m: ToolResultMessage | undefined) => (m?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');

/** The parent starts one child, `writer`, whose first turn makes `firstCall`. */
function oneChild(r: SubagentRig, firstCall: ReturnType<typeof call>) {
  r.route((q) => (q.child ? (q.turns === 0 ? firstCall : say('child finished')) : q.turns === 0 ? task([{ description: 'writer', prompt: 'W' }]) : say('ok')));
}

test("a child's approval question comes to the parent's window labelled with the child's description; a denial leaves the file unwritten", async () => {
  rig = await openSubagentRig();
  const r = rig;
  const target = join(r.outside, 'a.txt');
  const asked: ApprovalQuestion[] = [];
  r.api.subscribe((event, payload) => {
    if (event !== 'approval.requested') return;
    asked.push(payload as ApprovalQuestion);
    void r.call('approvals.answer', { questionId: (payload as ApprovalQuestion).id, answer: 'deny' });
  });
  const asking: boolean[] = [];
  r.app.subagents.onDidChange((view) => asking.push(view.asking));
  oneChild(r, call('write', { path: target, content: 'x' }));
  await r.app.agent.prompt(r.parentId, 'go');
  // Its row said it waited for the answer, and no longer once it was given.
  expect(asking.indexOf(true)).toBeGreaterThan(-1);
  expect(asking.slice(asking.indexOf(true)).includes(false)).toBe(true);
  expect(asking.at(-1)).toBe(false);
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ label: 'writer', sessionId: r.parentId, toolName: 'write', folder: r.outside });
  expect(existsSync(target)).toBe(false);
  const child = rowsOf(r)[0]!;
  expect(child.state).toBe('done');
  expect(childResults(r, child.childSessionId!)[0]).toMatchObject({ status: 'denied' });
});

test("the parent's stored rules and mode hold inside a child: a deny rule refuses its write, read mode refuses it too", async () => {
  rig = await openSubagentRig();
  const r = rig;
  const inside = join(r.workspace, 'in.txt');
  r.app.policy.setRules([{ effect: 'deny', tool: 'write' }]);
  oneChild(r, call('write', { path: inside, content: 'x' }));
  await r.app.agent.prompt(r.parentId, 'go');
  let child = rowsOf(r)[0]!;
  expect(childResults(r, child.childSessionId!)[0]).toMatchObject({ status: 'denied' });
  expect(existsSync(inside)).toBe(false);

  r.app.policy.setRules([]);
  r.app.policy.setMode(r.parentId, 'read');
  r.route((q) =>
    q.child
      ? q.turns === 0
        ? call('write', { path: inside, content: 'x' })
        : say('done')
      : q.sinceUser === 0
        ? task([{ description: 'w', prompt: 'W' }])
        : say('ok'),
  );
  await r.app.agent.prompt(r.parentId, 'again');
  child = rowsOf(r)[0]!;
  expect(childResults(r, child.childSessionId!)[0]).toMatchObject({ status: 'denied' });
  expect(existsSync(inside)).toBe(false);

  // Without either, the same write goes through: the refusals above were the parent's policy at work.
  r.app.policy.setMode(r.parentId, 'write');
  await r.app.agent.prompt(r.parentId, 'once more');
  expect(existsSync(inside)).toBe(true);
});

test("the parent's sandbox holds inside a child: a shell write outside the workspace, allowed when asked, fails on disk", async () => {
  rig = await openSubagentRig({
    app: (dir) => ({
      tools: pluginToolSource(runtime!.service.registries.tools, { denied: [join(dir, 'data')], isBundled: () => true }),
    }),
    before: async (dir) => {
      runtime = await startBundled(['workspace-tools'], { dataDir: join(dir, 'plugins') });
    },
  });
  const r = rig;
  const outside = realpathSync(r.outside);
  const target = join(outside, 'escaped.txt');
  const inside = join(realpathSync(r.workspace), 'kept.txt');
  writeFileSync(join(r.workspace, 'README.md'), 'hello\n');
  const asked: ApprovalQuestion[] = [];
  r.api.subscribe((event, payload) => {
    if (event !== 'approval.requested') return;
    asked.push(payload as ApprovalQuestion);
    void r.call('approvals.answer', { questionId: (payload as ApprovalQuestion).id, answer: 'once' });
  });
  r.route((q) => {
    if (!q.child) return q.turns === 0 ? task([{ description: 'shell', prompt: 'S' }]) : say('ok');
    if (q.turns === 0) return call('bash', { command: `echo in > ${inside}; echo out > ${target}` });
    return say('child finished');
  });
  await r.app.agent.prompt(r.parentId, 'go');
  const child = rowsOf(r)[0]!;
  const result = childResults(r, child.childSessionId!)[0];
  expect(existsSync(target), textOf(result)).toBe(false);
  expect(existsSync(inside), textOf(result)).toBe(true);
  expect(result?.['details']).toMatchObject({ sandbox: 'write' });
  expect(asked.every((q) => q.label === 'shell')).toBe(true);
});

test('Stop on the parent ends children whose shell commands run in the real tool plugin: within 2 s no such process is left', async () => {
  rig = await openSubagentRig({
    app: (dir) => ({
      tools: pluginToolSource(runtime!.service.registries.tools, { denied: [join(dir, 'data')], isBundled: () => true }),
    }),
    before: async (dir) => {
      runtime = await startBundled(['workspace-tools'], { dataDir: join(dir, 'plugins') });
    },
  });
  const r = rig;
  // A marker no other process on the machine has in its command line.
  const marker = `${30 + Math.floor(Math.random() * 1000) / 1000}`;
  const sleepers = () =>
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(`sleep ${marker}`);
        } catch {
          return false;
        }
      });
  r.route((q) => {
    if (!q.child) return q.sinceUser === 0 ? task(['one', 'two', 'three', 'four'].map((d) => ({ description: d, prompt: d }))) : say('ok');
    return q.turns === 0 ? call('bash', { command: `sleep ${marker}` }) : say('slept');
  });
  const run = r.app.agent.start(r.parentId, 'go');
  await expect.poll(() => sleepers().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
  const stoppedAt = performance.now();
  r.app.agent.abort(r.parentId);
  await run.done;
  await expect.poll(() => sleepers().length, { timeout: 2000 }).toBe(0);
  expect(performance.now() - stoppedAt).toBeLessThan(2000);
  expect(rowsOf(r).map((v) => v.state)).toEqual(['stopped', 'stopped', 'stopped', 'stopped']);
});
