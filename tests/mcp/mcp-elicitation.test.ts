// A server asks the user (elicitation, form mode) while one of its tools runs: the reference server's
// trigger-elicitation-request, through the real MCP plugin process, main's broker and the window's API. The form
// names the server and its message and carries the call's conversation and tool; accept is checked, decline and
// cancel each answer the server; where no one can be asked (a scheduled run) it is declined at once.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { UnattendedApprovals } from '../../src/main/policy/index.ts';
import { type ElicitationQuestion, elicitationDefaults } from '../../src/shared/elicitation/index.ts';
import type { McpListing } from '../../src/shared/api/index.ts';
import type { ToolOutput } from '../../src/shared/tools/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { EVERYTHING_ENTRY } from './everything-server.ts';
import { untilMcpChange } from './mcp-api.ts';

const TOOL = 'mcp__everything__trigger-elicitation-request';
let t: AppUnderTest;
let sessionId: string;

beforeEach(async () => {
  t = openApp({ prefix: 'amber-mcp-elicit-', app: (dir) => ({ dataDir: dir }) });
  const events: McpListing[] = [];
  t.api.subscribe((event, payload) => event === 'mcp.changed' && events.push(payload as McpListing));
  await t.call('mcp.import', { json: JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } }) });
  await untilMcpChange(t.api, events, (l) => l.servers.some((s) => s.name === 'everything' && s.state === 'connected'));
  sessionId = (await t.call<{ id: string }>('sessions.create', { title: 'Forms' })).id;
});
afterEach(() => t.close());

/** Runs the tool as the agent does (with the conversation and a progress sink), so the form belongs to its card. */
function run(signal = new AbortController().signal): Promise<ToolOutput> {
  return t.app.plugins.registries.tools.execute(TOOL, {}, signal, { sessionId, workspace: t.dir, denied: [] }, () => {});
}

function nextQuestion(): Promise<ElicitationQuestion> {
  return new Promise((resolve) => {
    const sub = t.api.subscribe((event, payload) => {
      if (event !== 'elicitation.requested') return;
      sub.dispose();
      resolve(payload as ElicitationQuestion);
    });
  });
}

const text = (out: ToolOutput) => out.content.map((c) => ('text' in c ? c.text : '')).join('\n');

test("the server's form reaches the window on the running call's card; a wrong answer is refused, an accepted one reaches the server", async () => {
  const asked = nextQuestion();
  const call = run();
  const question = await asked;
  expect(question).toMatchObject({ source: 'everything', message: 'Please provide inputs for the following fields:', sessionId, toolName: TOOL });
  const byName = Object.fromEntries(question.fields.map((f) => [f.name, f]));
  expect(byName['name']).toMatchObject({ kind: 'text', required: true });
  expect(byName['email']).toMatchObject({ kind: 'text', format: 'email' });
  expect(byName['integer']).toMatchObject({ kind: 'integer', minimum: 1, maximum: 100, default: 42 });
  expect(byName['titledSingleSelectEnum']).toMatchObject({
    kind: 'choice',
    options: [{ value: 'hero-1', label: 'Superman' }, expect.anything(), expect.anything()],
  });
  expect(byName['legacyTitledEnum']).toMatchObject({ kind: 'choice', options: expect.arrayContaining([{ value: 'pet-1', label: 'Cats' }]) });
  expect(byName['titledMultipleSelectEnum']).toMatchObject({ kind: 'choices', default: ['fish-1'] });
  expect(await t.call('elicitations.list')).toEqual([question]);

  const defaults = elicitationDefaults(question.fields);
  const missing = await t.refused('elicitations.answer', { questionId: question.id, answer: { action: 'accept', content: defaults } });
  expect(missing).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^The form cannot be sent: String: Fill this in/) });
  const tooBig = await t.refused('elicitations.answer', {
    questionId: question.id,
    answer: { action: 'accept', content: { ...defaults, name: 'Ann', integer: 500 } },
  });
  expect(tooBig.message).toMatch(/Integer: Enter 100 or less/);

  await t.call('elicitations.answer', {
    questionId: question.id,
    answer: { action: 'accept', content: { ...defaults, name: 'Ann Lee', email: 'ann@example.com' } },
  });
  const out = text(await call);
  expect(out).toContain('User provided the requested information');
  expect(out).toContain('- Name: Ann Lee');
  expect(out).toContain('- Favorite Integer: 42');
  expect(await t.call('elicitations.list')).toEqual([]);
  expect(t.events.some((e) => e.event === 'elicitation.settled' && (e.payload as { action: string }).action === 'accept')).toBe(true);
});

test('decline and cancel each answer the server', async () => {
  for (const action of ['decline', 'cancel'] as const) {
    const asked = nextQuestion();
    const call = run();
    const question = await asked;
    await t.call('elicitations.answer', { questionId: question.id, answer: { action } });
    expect(text(await call)).toContain(action === 'decline' ? 'User declined' : 'User cancelled');
  }
  expect(await t.refused('elicitations.answer', { questionId: 'gone', answer: { action: 'decline' } })).toMatchObject({ code: 'not_found' });
});

test('stopping the run withdraws the form from the window', async () => {
  const asked = nextQuestion();
  const stop = new AbortController();
  const call = run(stop.signal);
  const question = await asked;
  const settled = new Promise<void>((resolve) => {
    const sub = t.api.subscribe((event, payload) => {
      if (event === 'elicitation.settled' && (payload as { questionId: string }).questionId === question.id) {
        sub.dispose();
        resolve();
      }
    });
  });
  stop.abort();
  await call;
  await settled;
  expect(await t.call('elicitations.list')).toEqual([]);
});

test('in a run with no one to ask (a scheduled task), the form is declined at once and never shown', async () => {
  const unattended = t.app.policy.runUnattended(sessionId, new UnattendedApprovals([TOOL]));
  try {
    expect(text(await run())).toContain('User declined');
    expect(t.events.filter((e) => e.event === 'elicitation.requested')).toEqual([]);
  } finally {
    unattended.dispose();
  }
});

test("in a core with no one to ask (the CLI's unattended run, an eval), every form is declined at once", async () => {
  const cli = openApp({ prefix: 'amber-mcp-elicit-cli-', app: (dir) => ({ dataDir: dir, unattended: new UnattendedApprovals([]) }) });
  try {
    expect(cli.app.policy.canAsk()).toBe(false);
    const form = { requestId: 'r', source: 'everything', message: 'Name?', fields: [{ kind: 'text' as const, name: 'name', required: true }] };
    await expect(cli.app.elicitations.ask('mcp', form)).resolves.toEqual({ action: 'decline' });
    expect(cli.app.elicitations.pending()).toEqual([]);
    // The windowed core asks, except in a run with no one to ask.
    expect(t.app.policy.canAsk(sessionId)).toBe(true);
  } finally {
    await cli.close();
  }
});
