// Thinking levels per branch, as the provider receives them: the OpenAI-compatible `reasoning_effort`
// for a model that reasons, nothing (and a notice) for one that does not.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent/index.ts';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { loopbackModel } from '../fixtures/loopback-model.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

let fixture: AppUnderTest;
let dir: string;
let server: ProviderServer;
let app: App;
let api: ApiRouter;
let reasoning: boolean;
let events: AgentEvent[];

beforeEach(async () => {
  server = await startProviderServer();
  reasoning = true;
  events = [];
  fixture = openApp({
    prefix: 'amber-thinking-',
    before: (d) => mkdirSync(join(d, 'home', 'ws'), { recursive: true }),
    app: (d) => ({
      home: join(d, 'home'),
      workspace: join(d, 'home', 'ws'),
      ...loopbackModel(server, () => ({ reasoning })),
    }),
  });
  ({ dir, app, api } = fixture);
  app.agent.onDidEmit((e) => events.push(e));
});

afterEach(async () => {
  await fixture.close();
  await server.close();
});

const lastBody = () => server.requests.at(-1)!.body as Record<string, unknown>;

async function send(sessionId: string, text: string): Promise<void> {
  server.setScript([openAiStream({ text: 'ok' })]);
  await app.agent.start(sessionId, text).done;
}

test('a level set on a branch is sent as reasoning_effort, and each branch keeps its own', async () => {
  const s = app.sessions.create({ cwd: join(dir, 'home', 'ws') });
  await send(s.id, 'first');
  expect(lastBody().reasoning_effort).toBeUndefined();
  const forkPoint = app.sessions.leaf(s.id);

  expect(await api.call('chat.setThinking', { sessionId: s.id, level: 'high' })).toEqual({ ok: true, value: { level: 'high' } });
  await send(s.id, 'think hard');
  expect(lastBody().reasoning_effort).toBe('high');
  const highLeaf = app.sessions.leaf(s.id);

  // Back on the branch before the change, the level is off again; /thinking sets medium there.
  app.sessions.branch(s.id, forkPoint);
  expect(await api.call('chat.getThinking', { sessionId: s.id })).toEqual({ ok: true, value: { level: 'off' } });
  const r = await api.call('commands.run', { input: '/thinking medium', sessionId: s.id });
  expect(r.ok).toBe(true);
  await send(s.id, 'think some');
  expect(lastBody().reasoning_effort).toBe('medium');
  app.sessions.branch(s.id, highLeaf);
  expect(await api.call('chat.getThinking', { sessionId: s.id })).toEqual({ ok: true, value: { level: 'high' } });
});

test('a model that does not reason gets no reasoning setting, and the user is told once', async () => {
  reasoning = false;
  const s = app.sessions.create({ cwd: join(dir, 'home', 'ws') });
  await api.call('chat.setThinking', { sessionId: s.id, level: 'medium' });
  await send(s.id, 'hello');
  expect(lastBody().reasoning_effort).toBeUndefined();
  expect(events.filter((e) => e.type === 'notice' && e.code === 'thinking_unsupported')).toHaveLength(1);
});

test('a level that is not one of off/low/medium/high is refused', async () => {
  const s = app.sessions.create({ cwd: join(dir, 'home', 'ws') });
  expect((await api.call('chat.setThinking', { sessionId: s.id, level: 'ultra' })).ok).toBe(false);
  const r = (await api.call('commands.run', { input: '/thinking ultra', sessionId: s.id })) as { ok: true; value: { result: { kind: string; text: string } } };
  expect(r.value.result.text).toMatch(/not a thinking level/);
});
