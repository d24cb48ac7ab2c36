// The task tool through a whole core: the parent's model (the loopback server) calls task, children answer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SUBAGENTS_OFF } from '../../src/main/subagents/index.ts';
import { isToolResult, type ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { TaskDetails } from '../../src/shared/subagents/index.ts';
import { AGENT_EVENT_TOPIC } from '../../src/shared/plugins/index.ts';
import { call, openSubagentRig, say, type SubagentRig, task } from './subagent-rig.ts';

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
const resultText = () =>
  taskResult()
    .content.map((c) => (c.type === 'text' ? c.text : ''))
    .join('');
const rows = () => TaskDetails.parse(taskResult()['details']).subagents;

/** The parent calls task once with `tasks`, then says "all done" once the result is in. */
function parentCalls(tasks: Parameters<typeof task>[0], mode: 'serial' | 'parallel' = 'parallel') {
  return (turns: number) => (turns === 0 ? task(tasks, mode) : say('all done'));
}

test('while switched off the task tool is not offered, and a call reads a refusal naming Settings and /set agent.subagents on', async () => {
  rig.set('agent.subagents', false);
  expect(await rig.app.subagents.tools.list()).toEqual([]);
  rig.route(() => say('hello'));
  await rig.app.agent.prompt(rig.parentId, 'hi');
  expect(rig.requests[0]!.tools).not.toContain('task');
  const out = await rig.app.subagents.runTask(
    { tasks: [{ description: 'd', prompt: 'p' }] },
    { sessionId: rig.parentId, workspaceRoot: rig.workspace, toolCallId: 'c1', signal: new AbortController().signal, onUpdate: () => {} },
  );
  expect(out).toMatchObject({ isError: true, content: [{ text: SUBAGENTS_OFF }] });
  expect(SUBAGENTS_OFF).toMatch(/Settings/);
  expect(SUBAGENTS_OFF).toMatch(/\/set agent\.subagents on/);
});

test('a parallel run of three children returns each whole reply in task order, each child a linked conversation left out of the list', async () => {
  const long = 'x'.repeat(5000);
  const parent = parentCalls([
    { description: 'first', prompt: 'P1' },
    { description: 'second', prompt: 'P2' },
    { description: 'third', prompt: 'P3' },
  ]);
  rig.route(async (r) => {
    if (!r.child) return parent(r.turns);
    // The first child answers last: the results are still in task order.
    if (r.prompt === 'P1') await new Promise((resolve) => setTimeout(resolve, 150));
    return say(r.prompt === 'P2' ? `answer two ${long}` : `answer ${r.prompt}`, { input: 10, output: 5 });
  });
  const run = await rig.app.agent.prompt(rig.parentId, 'go');
  expect(run.reason).toBe('stop');
  const text = resultText();
  expect(text.indexOf('answer P1')).toBeGreaterThan(0);
  expect(text.indexOf('answer P1')).toBeLessThan(text.indexOf('answer two'));
  expect(text.indexOf('answer two')).toBeLessThan(text.indexOf('answer P3'));
  expect(text).toContain(`answer two ${long}`);
  expect(text).toMatch(/^3 tasks \(parallel\): 3 done\./);
  expect(taskResult().isError).toBe(false);
  const views = rows();
  expect(views.map((v) => [v.description, v.state, v.turns, v.tokens])).toEqual([
    ['first', 'done', 1, 15],
    ['second', 'done', 1, 15],
    ['third', 'done', 1, 15],
  ]);
  expect(views.every((v) => v.cost > 0)).toBe(true);
  // Each child is a conversation of its own, linked to the call, and not in the sessions list.
  const toolCallId = taskResult().toolCallId;
  for (const v of views) expect(rig.app.sessions.get(v.childSessionId!)).toMatchObject({ parent: { sessionId: rig.parentId, toolCallId }, cwd: rig.workspace });
  const listed = await rig.call<{ sessions: { id: string }[] }>('sessions.list');
  expect(listed.sessions.map((s) => s.id)).toEqual([rig.parentId]);
  const announced = rig.events.filter((e) => e.event === 'session.created' || e.event === 'session.updated').map((e) => (e.payload as { id: string }).id);
  expect(announced.filter((id) => id !== rig.parentId)).toEqual([]);
  // The window heard each row change, and the last word on each is its end.
  const heard = rig.events.filter((e) => e.event === 'subagent.changed').map((e) => e.payload as { index: number; state: string });
  expect(
    heard
      .filter((v) => v.state === 'done')
      .map((v) => v.index)
      .sort(),
  ).toEqual([0, 1, 2]);
});

test('children get no task tool (depth 1), share the parent system message as their prefix, and run under the parent model', async () => {
  rig.route((r) => (r.child ? say('child answer') : r.turns === 0 ? task([{ description: 'only', prompt: 'P' }]) : say('ok')));
  await rig.app.agent.prompt(rig.parentId, 'go');
  const parentRequest = rig.requests.find((r) => !r.child)!;
  const childRequest = rig.requests.find((r) => r.child)!;
  expect(parentRequest.tools).toContain('task');
  expect(childRequest.tools).not.toContain('task');
  expect(childRequest.tools).toEqual(['note', 'write', 'wait']);
  expect(childRequest.system.startsWith(parentRequest.system)).toBe(true);
  expect(childRequest.raw.body).toMatchObject({ model: 'fixture-model' });
});

test('serial children run one after another, each starting after the one before ended, results in order', async () => {
  const order: string[] = [];
  rig.route((r) => {
    if (!r.child)
      return r.turns === 0
        ? task(
            [
              { description: 'a', prompt: 'PA' },
              { description: 'b', prompt: 'PB' },
            ],
            'serial',
          )
        : say('ok');
    order.push(`${r.prompt}:${r.turns}`);
    return r.turns === 0 ? call('note', { text: r.prompt }) : say(`done ${r.prompt}`);
  });
  await rig.app.agent.prompt(rig.parentId, 'go');
  expect(order).toEqual(['PA:0', 'PA:1', 'PB:0', 'PB:1']);
  expect(resultText()).toMatch(/2 tasks \(serial\): 2 done[\s\S]*done PA[\s\S]*done PB/);
  expect(rows().map((v) => v.toolCalls)).toEqual([1, 1]);
});

test('a task over the at-once limit is refused before it starts, naming the limit; the others run', async () => {
  rig.set('agent.subagents.maxParallel', 2);
  rig.route((r) => (r.child ? say(`ok ${r.prompt}`) : r.turns === 0 ? task(['1', '2', '3'].map((n) => ({ description: n, prompt: n }))) : say('ok')));
  await rig.app.agent.prompt(rig.parentId, 'go');
  expect(rows().map((v) => v.state)).toEqual(['done', 'done', 'refused']);
  expect(rows()[2]!.reason).toMatch(/agent\.subagents\.maxParallel/);
  expect(rows()[2]!.childSessionId).toBeNull();
  expect(rig.requests.filter((r) => r.child)).toHaveLength(2);
  expect(resultText()).toMatch(/2 done, 1 refused/);
});

test('the per-message limit counts every child a message started, across task calls, and starts again with the next message', async () => {
  rig.set('agent.subagents.maxPerTurn', 2);
  rig.route((r) => {
    if (r.child) return say('ok');
    if (r.turns === 0) return task([{ description: 'a', prompt: 'a' }], 'serial');
    if (r.turns === 1)
      return task(
        [
          { description: 'b', prompt: 'b' },
          { description: 'c', prompt: 'c' },
        ],
        'serial',
      );
    return say('done');
  });
  await rig.app.agent.prompt(rig.parentId, 'go');
  expect(rows().map((v) => v.state)).toEqual(['done', 'refused']);
  expect(rows()[1]!.reason).toMatch(/agent\.subagents\.maxPerTurn/);
  // The next message of the user's may start children again.
  rig.route((r) => (r.child ? say('ok') : r.sinceUser === 0 ? task([{ description: 'd', prompt: 'd' }]) : say('done')));
  await rig.app.agent.prompt(rig.parentId, 'again');
  expect(rows().map((v) => v.state)).toEqual(['done']);
});

test('a child that reaches its iteration cap fails, naming the cap, with what it had; its sibling is kept', async () => {
  rig.set('agent.subagents.maxIterations', 2);
  rig.route((r) => {
    if (!r.child)
      return r.turns === 0
        ? task([
            { description: 'loops', prompt: 'L' },
            { description: 'fine', prompt: 'F' },
          ])
        : say('ok');
    if (r.prompt === 'F') return say('fine answer');
    return call('note', { text: `round ${r.turns}` });
  });
  await rig.app.agent.prompt(rig.parentId, 'go');
  const [loops, fine] = rows();
  expect(loops).toMatchObject({ state: 'failed', turns: 2 });
  expect(loops!.reason).toMatch(/agent\.subagents\.maxIterations/);
  expect(fine).toMatchObject({ state: 'done' });
  expect(resultText()).toContain('fine answer');
  expect(taskResult().isError).toBe(false);
});

test('a child whose budget runs out is stopped and fails naming the budget; a failing child keeps its siblings', async () => {
  rig.set('agent.subagents.budgetTokens', 100);
  rig.route((r) => {
    if (!r.child) return r.turns === 0 ? task(['spender', 'broken', 'good'].map((d) => ({ description: d, prompt: d }))) : say('ok');
    if (r.prompt === 'broken') return { kind: 'json', status: 400, body: { error: { message: 'the model refused this request' } } };
    if (r.prompt === 'spender') return say('spent a lot', { input: 90, output: 30 });
    return say('good answer', { input: 5, output: 5 });
  });
  await rig.app.agent.prompt(rig.parentId, 'go');
  const [spender, broken, good] = rows();
  expect(spender).toMatchObject({ state: 'failed', tokens: 120 });
  expect(spender!.reason).toMatch(/agent\.subagents\.budgetTokens/);
  expect(broken).toMatchObject({ state: 'failed' });
  expect(broken!.reason).toMatch(/refused this request/);
  expect(good).toMatchObject({ state: 'done' });
  expect(resultText()).toContain('good answer');
  expect(resultText()).toContain('spent a lot');
});

test('an unknown agent name is refused, naming the agents there are', async () => {
  rig.route((r) => (r.child ? say('ok') : r.turns === 0 ? task([{ description: 'x', prompt: 'x', agent: 'nobody' }]) : say('ok')));
  await rig.app.agent.prompt(rig.parentId, 'go');
  expect(rows()[0]).toMatchObject({ state: 'refused' });
  expect(rows()[0]!.reason).toMatch(/no agent named nobody; the agents are .*general/);
  expect(taskResult().isError).toBe(true);
});

test("the parent conversation's tokens and cost in the status bar include what its children spent", async () => {
  rig.route((r) => {
    if (r.child) return say(`answer ${r.prompt}`, { input: 10, output: 5 });
    return r.turns === 0 ? task(['a', 'b', 'c'].map((d) => ({ description: d, prompt: d }))) : say('all done', { input: 200, output: 20 });
  });
  await rig.app.agent.prompt(rig.parentId, 'go');
  const bar = await rig.call<{ segments: { id: string; text: string }[] }>('status.list', { sessionId: rig.parentId });
  // The parent's one priced reply (200 in, 20 out) and three children of 15 tokens each (10 in, 5 out).
  expect(bar.segments.find((s) => s.id === 'core.tokens')?.text).toBe('↑ 230 ↓ 35');
  expect(rows().reduce((sum, v) => sum + v.cost, 0)).toBeGreaterThan(0);
});

test("a child's replies reach the plugins (the budget plugin's allowances) as spend of the parent conversation", async () => {
  const heard: { type: string; sessionId: string; usage?: unknown }[] = [];
  rig.app.plugins.events.on(AGENT_EVENT_TOPIC, (payload) => {
    const event = payload as { type: string; sessionId: string; entry?: { message?: { usage?: unknown; role?: string } } };
    if (event.type === 'message_end') heard.push({ type: event.type, sessionId: event.sessionId, usage: event.entry?.message?.usage });
  });
  rig.route((r) => (r.child ? say('child answer', { input: 40, output: 4 }) : r.turns === 0 ? task([{ description: 'a', prompt: 'a' }]) : say('ok')));
  await rig.app.agent.prompt(rig.parentId, 'go');
  const child = rows()[0]!;
  expect(heard.every((e) => e.sessionId === rig.parentId)).toBe(true);
  expect(heard.filter((e) => (e.usage as { input?: number } | undefined)?.input === 40)).toHaveLength(1);
  expect(heard.some((e) => e.sessionId === child.childSessionId)).toBe(false);
});

test('an agent definition shapes its child: the task tool lists it, and a read-only one gets only its read-only tools with its prompt', async () => {
  mkdirSync(join(rig.dataDir, 'agents'), { recursive: true });
  writeFileSync(
    join(rig.dataDir, 'agents', 'noter.md'),
    ['---', 'name: noter', 'description: Takes notes and changes nothing.', 'tools: [note, write]', 'write: false', '---', 'You only take notes.'].join('\n'),
  );
  rig.route((r) => (r.child ? say('noted') : r.turns === 0 ? task([{ description: 'n', prompt: 'N', agent: 'noter' }]) : say('ok')));
  await rig.app.agent.prompt(rig.parentId, 'go');
  const parent = rig.requests.find((r) => !r.child)!;
  const spec = (parent.raw.body as { tools: { function: { name: string; description: string } }[] }).tools.find((t) => t.function.name === 'task')!;
  expect(spec.function.description).toMatch(/- noter: Takes notes and changes nothing\./);
  expect(spec.function.description).toMatch(/- general: /);
  const child = rig.requests.find((r) => r.child)!;
  expect(child.tools).toEqual(['note']);
  expect(child.system).toMatch(/You only take notes\.$/);
  expect(rows()[0]).toMatchObject({ agent: 'noter', state: 'done' });
});

test("deleting a conversation deletes its child agents' conversations too", async () => {
  rig.route((r) =>
    r.child
      ? say('ok')
      : r.turns === 0
        ? task([
            { description: 'a', prompt: 'a' },
            { description: 'b', prompt: 'b' },
          ])
        : say('done'),
  );
  await rig.app.agent.prompt(rig.parentId, 'go');
  const children = rows().map((v) => v.childSessionId!);
  expect(rig.app.sessions.childSessions(rig.parentId).sort()).toEqual([...children].sort());
  await rig.call('sessions.delete', { sessionId: rig.parentId });
  for (const id of children) expect((await rig.refused('sessions.get', { sessionId: id })).code).toBe('not_found');
});

test("undoing the deletion brings the child agents' conversations back with it, linked to the same task call", async () => {
  rig.route((r) => (r.child ? say(`child ${r.sinceUser}`) : r.turns === 0 ? task([{ description: 'a', prompt: 'a' }]) : say('done')));
  await rig.app.agent.prompt(rig.parentId, 'go');
  const [row] = rows();
  const childId = row!.childSessionId!;
  const before = rig.app.sessions.get(childId);
  const entries = rig.app.sessions.path(childId).map((e) => e.id);
  await rig.call('sessions.delete', { sessionId: rig.parentId });
  expect((await rig.refused('sessions.get', { sessionId: childId })).code).toBe('not_found');
  await rig.call('sessions.restore', { sessionId: rig.parentId });
  expect(rig.app.sessions.childSessions(rig.parentId)).toEqual([childId]);
  expect(rig.app.sessions.get(childId)).toMatchObject({ parent: before.parent, leafId: before.leafId, title: before.title });
  expect(rig.app.sessions.path(childId).map((e) => e.id)).toEqual(entries);
  // Still out of the sidebar's list, as before.
  expect((await rig.call<{ sessions: { id: string }[] }>('sessions.list', {})).sessions.map((x) => x.id)).not.toContain(childId);
});
