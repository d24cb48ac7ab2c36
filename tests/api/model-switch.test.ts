// Model switching over the API: every set-up provider's models are offered, and a switch is a
// model_change entry on the branch.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

const stream = async function* () {};
const model = (id: string) => ({ id, contextWindow: 8192, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });

let t: AppUnderTest;
let app: App;
let api: ApiRouter;

beforeEach(() => {
  t = openApp({ prefix: 'amber-models-', app: (dir) => ({ home: dir, defaultModel: { provider: 'a', modelId: 'gpt-4o-mini' } }) });
  ({ app, api } = t);
  app.plugins.registries.providers.register('plugin-a', 'a', {
    id: 'a',
    flavor: 'custom',
    presets: [],
    models: [model('gpt-4o-mini'), model('o3-mini')],
    stream,
  });
  app.plugins.registries.providers.register('plugin-b', 'b', { id: 'b', flavor: 'ollama', presets: [], models: [model('llama3.1:8b')], stream });
});

afterEach(() => t.close());

test('every model of every provider is offered, and a switch is a model_change entry on the branch', async () => {
  const s = app.sessions.create({ cwd: null });
  const listed = await api.call('chat.models', { sessionId: s.id });
  expect(listed).toMatchObject({ ok: true, value: { current: { provider: 'a', modelId: 'gpt-4o-mini' } } });
  if (!listed.ok) return;
  expect((listed.value as { models: { provider: string; modelId: string }[] }).models.map((m) => `${m.provider}/${m.modelId}`)).toEqual([
    'a/gpt-4o-mini',
    'a/o3-mini',
    'b/llama3.1:8b',
  ]);
  expect(await api.call('chat.setModel', { sessionId: s.id, provider: 'b', modelId: 'llama3.1:8b' })).toEqual({
    ok: true,
    value: { current: { provider: 'b', modelId: 'llama3.1:8b' } },
  });
  const leaf = app.sessions.entry(s.id, app.sessions.leaf(s.id)!);
  expect(leaf).toMatchObject({ type: 'model_change', provider: 'b', modelId: 'llama3.1:8b' });
  expect(app.sessions.context(s.id).model).toEqual({ provider: 'b', modelId: 'llama3.1:8b' });
});

test('a provider that is not set up is refused, and nothing is recorded', async () => {
  const s = app.sessions.create({ cwd: null });
  const r = await api.call('chat.setModel', { sessionId: s.id, provider: 'nope', modelId: 'x' });
  expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
  expect(app.sessions.leaf(s.id)).toBeNull();
});

/** What the palette answers for `input` in the conversation `sessionId`. */
const slash = async (sessionId: string, input: string) =>
  (await t.call<{ result: { kind: string; text: string } }>('commands.run', { input, sessionId })).result;

test('/model and chat.setModel give the same answer to the same bad model, and record nothing', async () => {
  const s = app.sessions.create({ cwd: null });
  const routed = await t.refused('chat.setModel', { sessionId: s.id, provider: 'nope', modelId: 'x' });
  expect(routed).toEqual({ code: 'not_found', message: "No provider 'nope' is set up; choose one of the models listed." });
  // The palette names the command before the sentence it got.
  expect(await slash(s.id, '/model nope/x')).toEqual({ kind: 'error', text: `/model: ${routed.message}` });
  expect(app.sessions.leaf(s.id)).toBeNull();
  expect(await slash(s.id, '/model b/llama3.1:8b')).toMatchObject({ kind: 'ok' });
  expect(app.sessions.branchState(s.id).model).toEqual({ provider: 'b', modelId: 'llama3.1:8b' });
});

test('/thinking and chat.setThinking give the same answer to the same bad level, and record nothing', async () => {
  const s = app.sessions.create({ cwd: null });
  const routed = await t.refused('chat.setThinking', { sessionId: s.id, level: 'extreme' });
  expect(routed).toEqual({ code: 'invalid_input', message: '“extreme” is not a thinking level: use off, low, medium or high.' });
  expect(await slash(s.id, '/thinking extreme')).toEqual({ kind: 'error', text: `/thinking: ${routed.message}` });
  expect(app.sessions.leaf(s.id)).toBeNull();
  expect(await t.call('chat.setThinking', { sessionId: s.id, level: 'High' })).toEqual({ level: 'high' });
  expect(app.sessions.branchState(s.id).thinkingLevel).toBe('high');
});
