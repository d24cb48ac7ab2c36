// The silent confirm turn, against a loopback OpenAI-compatible server: after a run that used tools ends,
// the model is asked whether the task is finished; "continue" runs another turn, "done" (or anything else)
// ends the run, at most twice a run, and none of it shows in the transcript or reaches later requests.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import { confirmAnswer } from '../../src/main/agent/confirm-turn.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { loopbackModel } from '../fixtures/loopback-model.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

let t: AppUnderTest;
let server: ProviderServer;
let app: App;
let ran: string[];

beforeEach(async () => {
  server = await startProviderServer();
  ran = [];
  t = openApp({
    prefix: 'amber-confirm-',
    before: (dir) => mkdirSync(join(dir, 'home', 'ws'), { recursive: true }),
    app: (dir) => ({
      home: join(dir, 'home'),
      workspace: join(dir, 'home', 'ws'),
      ...loopbackModel(server),
      tools: {
        list: () => [{ name: 'step', description: 'Does one step.', parameters: { type: 'object', properties: { n: { type: 'number' } } }, readOnly: true }],
        execute: async (_name, args) => {
          ran.push(String(args.n));
          return { content: [{ type: 'text', text: `step ${String(args.n)} done` }], isError: false };
        },
      },
    }),
  });
  ({ app } = t);
});

afterEach(async () => {
  await t.close();
  await server.close();
});

const step = (n: number) => openAiStream({ toolCalls: [{ id: `call_${n}`, name: 'step', arguments: { n } }] });
type Body = { messages: { role: string; content: unknown }[]; tools?: unknown[] };
const bodyOf = (i: number) => server.requests[i]!.body as Body;
const lastUserText = (i: number) =>
  String(
    bodyOf(i)
      .messages.filter((m) => m.role === 'user')
      .at(-1)?.content,
  );

async function run(): Promise<{ sessionId: string; reason: string }> {
  const s = app.sessions.create({ cwd: join(t.dir, 'home', 'ws') });
  const result = await app.agent.start(s.id, 'Do the two steps.').done;
  return { sessionId: s.id, reason: result.reason };
}

test('"continue" starts another turn, which finishes the task; "done" then ends the run', async () => {
  server.setScript([
    step(1),
    openAiStream({ text: 'Step one is done.' }),
    openAiStream({ text: 'continue' }),
    step(2),
    openAiStream({ text: 'Both steps are done.' }),
    openAiStream({ text: 'done' }),
  ]);
  const { sessionId, reason } = await run();
  expect(reason).toBe('stop');
  expect(ran).toEqual(['1', '2']);
  expect(server.requests).toHaveLength(6);
  // The confirm requests ask the question, with no tools offered.
  expect(lastUserText(2)).toMatch(/Is the task the user asked for finished/);
  expect(bodyOf(2).tools ?? []).toEqual([]);
  // The turn after "continue" is told to go on, and no longer carries the question or its answer.
  expect(lastUserText(3)).toMatch(/not finished yet: continue/);
  expect(JSON.stringify(bodyOf(3).messages)).not.toMatch(/Is the task the user asked for finished/);
  // Nothing of it shows in the transcript: the visible replies are the model's own.
  const page = app.sessions.page(sessionId, {});
  const visible = page.entries.filter((e) => e.type === 'message' || (e.type === 'custom_message' && e.display));
  expect(visible.map((e) => (e.type === 'message' ? e.message.role : e.type))).toEqual([
    'user',
    'assistant',
    'toolResult',
    'assistant',
    'assistant',
    'toolResult',
    'assistant',
  ]);
  const confirms = page.entries.filter((e) => e.type === 'custom' && e.customType === 'amber.confirm');
  expect(confirms.map((e) => (e.type === 'custom' ? (e.data as { answer: string }).answer : null))).toEqual(['continue', 'done']);
});

test('"done" ends the run at the first confirm', async () => {
  server.setScript([step(1), openAiStream({ text: 'Finished.' }), openAiStream({ text: 'Done.' })]);
  const { reason } = await run();
  expect(reason).toBe('stop');
  expect(server.requests).toHaveLength(3);
});

test('at most two confirm turns a run', async () => {
  server.setScript([
    step(1),
    openAiStream({ text: 'One.' }),
    openAiStream({ text: 'continue' }),
    openAiStream({ text: 'Two.' }),
    openAiStream({ text: 'continue' }),
    openAiStream({ text: 'Three.' }),
  ]);
  const { reason } = await run();
  expect(reason).toBe('stop');
  expect(server.requests).toHaveLength(6);
});

test('a run that used no tools ends without asking', async () => {
  server.setScript([openAiStream({ text: 'Just an answer.' })]);
  await run();
  expect(server.requests).toHaveLength(1);
});

test('only the word continue continues', () => {
  expect(confirmAnswer('continue')).toBe('continue');
  expect(confirmAnswer(' "Continue." ')).toBe('continue');
  expect(confirmAnswer('**CONTINUE**')).toBe('continue');
  for (const other of ['done', 'Done.', 'I will continue', 'continue with step 2', '', 'maybe']) expect(confirmAnswer(other)).toBe('done');
});
