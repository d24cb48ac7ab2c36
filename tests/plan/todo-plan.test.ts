// The todo tool and the plan through the API of a real core, with the model on a loopback HTTP server:
// off by default (the model reads why), then kept as entries of the branch, announced live, and read per
// branch — an edited earlier message forks a branch with the plan of its own path.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent/index.ts';
import type { PlanItem, PlanView } from '../../src/shared/plan/index.ts';
import type { Entry, TranscriptPage } from '../../src/shared/sessions/index.ts';
import { coreFor, MODEL } from '../fixtures/loopback-model.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { openAiStream, type ProviderServer, type Reply, type Script, startProviderServer } from '../fixtures/provider-server.ts';

let t: AppUnderTest | undefined;
let server: ProviderServer | undefined;
afterEach(async () => {
  await t?.close();
  await server?.close();
  t = server = undefined;
});

async function start(): Promise<{ a: AppUnderTest; sessionId: string; model: ProviderServer }> {
  server = await startProviderServer();
  const s = server;
  t = openApp({ prefix: 'amber-plan-', app: (d) => (mkdirSync(join(d, 'ws')), coreFor(s, join(d, 'ws'))) });
  const sessionId = (await t.call<{ id: string }>('sessions.create', { title: 'plan' })).id;
  return { a: t, sessionId, model: s };
}

/** Sends a message (or an edit, with parentId) and waits for the run to settle. */
async function send(sessionId: string, text: string, parentId?: string | null): Promise<void> {
  const settled = new Promise<void>((resolve) => {
    const sub = t!.api.subscribe((event, payload) => {
      if (event === 'agent.emitted' && (payload as AgentEvent).type === 'agent_settled') {
        sub.dispose();
        resolve();
      }
    });
  });
  await t!.call('chat.send', { sessionId, text, ...(parentId !== undefined ? { parentId } : {}) });
  await settled;
}

/**
 * The agent's turns in order; requests without the agent's tools are side questions (the silent "is it
 * finished?" turn, a title) and get their own answers, so they never take a turn from the queue.
 */
function turns(replies: Reply[]): Script {
  const queue = [...replies];
  return (request) => {
    const tools = (request.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? [];
    if (!tools.some((tool) => tool.function.name === 'todo'))
      return openAiStream({ text: request.bodyText.includes('Is the task the user asked for finished') ? 'done' : 'Dates and time zones' });
    return queue.shift() ?? openAiStream({ text: 'Nothing more.' });
  };
}

const todo = (id: string, items: PlanItem[]) => openAiStream({ toolCalls: [{ id, name: 'todo', arguments: { items } }] });
const reply = (text: string) => openAiStream({ text });
const plans = () => t!.events.filter((e) => e.event === 'plan.changed').map((e) => (e.payload as PlanView).items);
const page = async (sessionId: string) => (await t!.call<TranscriptPage>('sessions.page', { sessionId })).entries;
const userEntry = (entries: Entry[], text: string) => entries.find((e) => e.type === 'message' && e.message.role === 'user' && e.message.content === text)!;

const v1: PlanItem[] = [
  { text: 'Read the parser', status: 'in_progress' },
  { text: 'Fix time zones', status: 'pending' },
  { text: 'Run the tests', status: 'pending' },
];
const v2: PlanItem[] = [
  { text: 'Read the parser', status: 'done' },
  { text: 'Fix time zones', status: 'in_progress' },
  { text: 'Run the tests', status: 'pending' },
];

test('the todo tool is off by default: the call is declined with a sentence naming Settings and /set agent.todo on, and no plan is kept', async () => {
  const { a, sessionId, model } = await start();
  model.setScript(turns([todo('call_1', v1), reply('Carrying on without a plan.')]));
  await send(sessionId, 'Fix the dates');

  const result = (await page(sessionId)).find((e) => e.type === 'message' && e.message.role === 'toolResult');
  expect(result).toMatchObject({ message: { toolName: 'todo', isError: true } });
  const text = JSON.stringify(result);
  expect(text).toContain('Settings');
  expect(text).toContain('/set agent.todo on');
  expect(await a.call<PlanView>('plan.get', { sessionId })).toEqual({ sessionId, items: [], entryId: null });
  expect(plans()).toEqual([]);
  expect((await a.call<{ result: { text: string } }>('commands.run', { input: '/plan', sessionId })).result.text).toMatch(
    /todo tool is off.*\/set agent\.todo on/,
  );
});

test('switched on, each call replaces the plan, kept on the branch and announced live; an edited message forks a branch with its own path’s plan', async () => {
  const { a, sessionId, model } = await start();
  expect((await a.call<{ result: { kind: string; text: string } }>('commands.run', { input: '/set agent.todo on', sessionId })).result).toMatchObject({
    kind: 'ok',
    text: expect.stringMatching(/todo tool/),
  });
  expect(a.app.settings.get('agent.todo')).toBe(true);
  // The window reads the plan when it opens the conversation: from then on its changes are announced.
  expect((await a.call<PlanView>('plan.get', { sessionId })).items).toEqual([]);

  model.setScript(turns([todo('call_1', v1), reply('Planned.')]));
  await send(sessionId, 'First');
  model.setScript(turns([todo('call_2', v2), reply('Progress.')]));
  await send(sessionId, 'Second');

  expect(plans()).toEqual([v1, v2]);
  const current = await a.call<PlanView>('plan.get', { sessionId });
  expect(current.items).toEqual(v2);
  const entries = await page(sessionId);
  const planEntries = entries.filter((e) => e.type === 'custom' && e.customType === 'amber.plan');
  expect(planEntries.map((e) => (e as { data: unknown }).data)).toEqual([{ items: v1 }, { items: v2 }]);
  expect(current.entryId).toBe(planEntries[1]!.id);
  // The result tells the model where it stands; the plan entries themselves are never sent to it.
  expect(JSON.stringify(entries.filter((e) => e.type === 'message' && e.message.role === 'toolResult'))).toContain(
    'Plan kept: 1 of 3 done. In progress: Fix time zones',
  );
  expect(model.requests.at(-1)!.bodyText).not.toContain('amber.plan');
  expect((await a.call<{ result: { text: string } }>('commands.run', { input: '/plan', sessionId })).result.text).toBe(
    'Plan: 1 of 3 done.\n✓ Read the parser\n▸ Fix time zones\n○ Run the tests',
  );

  // Edit the second message: the new branch has the plan of its path, the first one.
  const oldLeaf = (await a.call<{ leafId: string }>('sessions.page', { sessionId })).leafId;
  model.setScript(turns([reply('Edited second.')]));
  await send(sessionId, 'Second, edited', userEntry(entries, 'Second').parentId);
  expect((await a.call<PlanView>('plan.get', { sessionId })).items).toEqual(v1);

  // Edit the first message: that branch has no plan at all.
  model.setScript(turns([reply('Edited first.')]));
  await send(sessionId, 'First, edited', userEntry(entries, 'First').parentId);
  expect(await a.call<PlanView>('plan.get', { sessionId })).toEqual({ sessionId, items: [], entryId: null });

  // Back on the first branch: its plan again.
  await a.call('sessions.branch', { sessionId, entryId: oldLeaf });
  expect((await a.call<PlanView>('plan.get', { sessionId })).items).toEqual(v2);
  expect(plans()).toEqual([v1, v2, v1, [], v2]);
});

test('a plan that breaks the rules is refused with a sentence and the plan stays as it was', async () => {
  const { a, sessionId, model } = await start();
  a.app.settings.set('agent.todo', true);
  const twoInProgress = v1.map((i) => ({ ...i, status: 'in_progress' as const }));
  model.setScript(turns([todo('call_1', v1), todo('call_2', twoInProgress), reply('ok')]));
  await send(sessionId, 'Go');
  const results = (await page(sessionId)).filter((e) => e.type === 'message' && e.message.role === 'toolResult');
  expect(results.map((e) => (e as { message: { isError: boolean } }).message.isError)).toEqual([false, true]);
  expect(JSON.stringify(results[1])).toContain('at most one item is in_progress at a time');
  expect((await a.call<PlanView>('plan.get', { sessionId })).items).toEqual(v1);
  expect(MODEL.provider).toBe('loopback');
});
