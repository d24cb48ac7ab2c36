// createApp builds one tool policy and hands it to the agent: what the user changes through the API's policy
// and approval routes is what the agent's next (or waiting) tool call is decided by.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import type { ApprovalQuestion } from '../../src/shared/agent/index.ts';
import { isToolResult } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { loopbackModel } from '../fixtures/loopback-model.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

let fixture: AppUnderTest;
let dir: string;
let workspace: string;
let outside: string;
let server: ProviderServer;
let app: App;
let api: ApiRouter;
let questions: ApprovalQuestion[];
let onQuestion: (() => void) | undefined;

beforeEach(async () => {
  server = await startProviderServer();
  fixture = openApp({
    prefix: 'amber-policy-wiring-',
    before: (d) => {
      dir = d;
      workspace = join(dir, 'home', 'ws');
      outside = join(dir, 'elsewhere');
      mkdirSync(workspace, { recursive: true });
      mkdirSync(outside, { recursive: true });
    },
    app: () => ({
      home: join(dir, 'home'),
      workspace,
      ...loopbackModel(server),
      tools: {
        list: () => [
          {
            name: 'write',
            description: 'Writes a file.',
            parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
            readOnly: false,
            pathParams: ['path'],
          },
        ],
        execute: async (_name, args) => {
          const path = String(args.path);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, String(args.content));
          return { content: [{ type: 'text', text: `wrote ${path}` }], isError: false };
        },
      },
    }),
  });
  ({ app, api } = fixture);
  questions = [];
  api.subscribe((event, payload) => {
    if (event !== 'approval.requested') return;
    questions.push(payload as ApprovalQuestion);
    onQuestion?.();
  });
});

afterEach(async () => {
  await fixture.close();
  await server.close();
});

/** One run that makes one write call, then ends (with the confirm turn's answer). */
function writeRun(sessionId: string, path: string, content: string): Promise<{ reason: string }> {
  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_1', name: 'write', arguments: { path, content } }] }),
    openAiStream({ text: 'Written.' }),
    openAiStream({ text: 'done' }),
  ]);
  return app.agent.start(sessionId, `Write ${path}.`).done;
}

const nextQuestion = (): Promise<ApprovalQuestion> =>
  new Promise((resolve) => {
    const seen = questions.length;
    onQuestion = () => {
      if (questions.length > seen) resolve(questions[seen]!);
    };
  });

const lastResult = (sessionId: string) =>
  app.sessions
    .path(sessionId)
    .flatMap((e) => (e.type === 'message' && isToolResult(e.message) ? [e.message] : []))
    .at(-1)!;

test('the agent asks the policy createApp built, the one the API serves', () => {
  expect(app.agent.gate).toBe(app.policy);
});

test('a mode set through the API decides a call that is already waiting for approval: it runs without an answer', async () => {
  const s = app.sessions.create({ cwd: workspace });
  const target = join(outside, 'a.txt');
  const asked = nextQuestion();
  const run = writeRun(s.id, target, 'one');
  expect((await asked).folder).toBe(outside);
  expect(existsSync(target)).toBe(false);

  expect(await api.call('policy.setMode', { sessionId: s.id, mode: 'yolo' })).toMatchObject({ ok: true, value: { mode: 'yolo' } });
  expect((await run).reason).toBe('stop');
  expect(readFileSync(target, 'utf8')).toBe('one');
  expect(lastResult(s.id).status).toBe('ok');
  expect(app.approvals.pending()).toEqual([]);
});

test('an "always for this folder" answer given through the API lets the next run write there without asking', async () => {
  const s = app.sessions.create({ cwd: workspace });
  const asked = nextQuestion();
  const first = writeRun(s.id, join(outside, 'a.txt'), 'one');
  const question = await asked;
  expect(await api.call('approvals.answer', { questionId: question.id, answer: 'always_folder' })).toEqual({ ok: true, value: { ok: true } });
  expect((await first).reason).toBe('stop');

  await writeRun(s.id, join(outside, 'b.txt'), 'two');
  expect(readFileSync(join(outside, 'b.txt'), 'utf8')).toBe('two');
  expect(questions).toHaveLength(1);
  expect(app.policy.rules()).toEqual([
    expect.objectContaining({ effect: 'allow', folder: outside, workspace, source: expect.objectContaining({ via: 'approval', sessionId: s.id }) }),
  ]);
});

test('an allow rule removed through the API is no longer honoured: the next write outside the workspace is asked about, and a denial leaves it unwritten', async () => {
  const s = app.sessions.create({ cwd: workspace });
  app.policy.setRules([{ effect: 'allow', tool: 'write', folder: outside }]);
  await writeRun(s.id, join(outside, 'a.txt'), 'allowed');
  expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('allowed');
  expect(questions).toEqual([]);

  const removed = await api.call('policy.removeRule', { id: app.policy.rules()[0]!.id, sessionId: s.id });
  expect(removed).toMatchObject({ ok: true, value: { rules: [] } });
  const asked = nextQuestion();
  const run = writeRun(s.id, join(outside, 'b.txt'), 'not allowed');
  const question = await asked;
  await api.call('approvals.answer', { questionId: question.id, answer: 'deny' });
  expect((await run).reason).toBe('stop');
  expect(existsSync(join(outside, 'b.txt'))).toBe(false);
  expect(lastResult(s.id).status).toBe('denied');
});

test('an "always" answer given through the API with scope everywhere stores a global rule, announced as policy.changed, that holds in another workspace folder', async () => {
  const events: string[] = [];
  api.subscribe((event) => events.push(event));
  const s = app.sessions.create({ cwd: workspace });
  const asked = nextQuestion();
  const first = writeRun(s.id, join(outside, 'a.txt'), 'one');
  const question = await asked;
  expect(question.workspaceRoot).toBe(workspace);
  expect(await api.call('approvals.answer', { questionId: question.id, answer: 'always_folder', scope: 'global' })).toEqual({ ok: true, value: { ok: true } });
  expect((await first).reason).toBe('stop');
  expect(app.policy.rules()).toEqual([
    expect.objectContaining({ effect: 'allow', folder: outside, source: expect.objectContaining({ via: 'approval', sessionId: s.id }) }),
  ]);
  expect(app.policy.rules()[0]).not.toHaveProperty('workspace');
  expect(events).toContain('policy.changed');

  const elsewhere = join(dir, 'home', 'other-ws');
  mkdirSync(elsewhere);
  const t = app.sessions.create({ cwd: elsewhere });
  await writeRun(t.id, join(outside, 'b.txt'), 'two');
  expect(readFileSync(join(outside, 'b.txt'), 'utf8')).toBe('two');
  expect(questions).toHaveLength(1);
});

test('hostile: approvals.answer refuses a scope that is not one, a huge question id and extra shapes; the question stays open', async () => {
  const s = app.sessions.create({ cwd: workspace });
  const asked = nextQuestion();
  const run = writeRun(s.id, join(outside, 'a.txt'), 'one');
  const question = await asked;
  for (const input of [
    { questionId: question.id, answer: 'always_tool', scope: 'universe' },
    { questionId: question.id, answer: 'always_tool', scope: 'x'.repeat(100_000) },
    { questionId: 'q'.repeat(201), answer: 'once' },
    { questionId: question.id, answer: 'always_tool', scope: null },
    { questionId: question.id, answer: { answer: 'once' } },
  ]) {
    expect(await api.call('approvals.answer', input), JSON.stringify(input).slice(0, 80)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  }
  expect(await api.call('approvals.answer', { questionId: 'no-such-question', answer: 'once', scope: 'global' })).toMatchObject({
    ok: false,
    error: { code: 'not_found' },
  });
  expect(app.approvals.pending().map((q) => q.id)).toEqual([question.id]);
  await api.call('approvals.answer', { questionId: question.id, answer: 'deny', scope: 'global' });
  expect((await run).reason).toBe('stop');
  expect(app.policy.rules()).toEqual([]);
});
