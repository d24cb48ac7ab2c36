import { afterEach, beforeEach, expect, test } from 'vitest';
import { type ApiRouter, createApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let fixture: AppUnderTest;
let app: App;
let api: ApiRouter;

beforeEach(() => {
  fixture = openApp({ prefix: 'amber-api-', app: (dir) => ({ dataDir: dir }) });
  ({ app, api } = fixture);
});

afterEach(() => fixture.close());

const ok = <T>(channel: string, input: unknown) => fixture.call<T>(channel, input);

test('a deleted session comes back whole with restore (undo)', async () => {
  const s = await ok<{ id: string }>('sessions.create', { title: 'Keep me' });
  const [u, a] = app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'user', content: 'hi' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stopReason: 'stop' } },
  ]);
  await ok('sessions.delete', { sessionId: s.id });
  expect((await api.call('sessions.get', { sessionId: s.id })).ok).toBe(false);
  const restored = await ok<{ title: string; leafId: string }>('sessions.restore', { sessionId: s.id });
  expect(restored).toMatchObject({ title: 'Keep me', leafId: a!.id });
  expect(app.sessions.path(s.id).map((e) => e.id)).toEqual([u!.id, a!.id]);
});

test('switching to a sibling follows it to its newest leaf, and the leaf is persisted', async () => {
  const s = await ok<{ id: string }>('sessions.create', {});
  const [u1] = app.sessions.appendMany(s.id, [{ type: 'message', message: { role: 'user', content: 'one' } }]);
  const [a1, u2] = app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'first' }], stopReason: 'stop' } },
    { type: 'message', message: { role: 'user', content: 'more' } },
  ]);
  app.sessions.branch(s.id, u1!.id);
  const [a2] = app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'second' }], model: 'other-model', stopReason: 'stop' } },
  ]);
  const sib = await ok<Record<string, { ids: string[]; index: number }>>('sessions.siblings', { sessionId: s.id, entryIds: [u1!.id, a2!.id] });
  // Each version with what tells it apart: its preview, its time, and a reply's model.
  expect(sib).toEqual({
    [a2!.id]: {
      ids: [a1!.id, a2!.id],
      index: 1,
      versions: [
        { preview: 'first', at: Date.parse(a1!.timestamp) },
        { preview: 'second', at: Date.parse(a2!.timestamp), model: 'other-model' },
      ],
    },
  });
  expect(await ok('sessions.branch', { sessionId: s.id, entryId: a1!.id, follow: 'newest' })).toEqual({ leafId: u2!.id });
  expect(app.sessions.leaf(s.id)).toBe(u2!.id);
});

test('the session last opened is the one the window opens at start', async () => {
  const a = await ok<{ id: string }>('sessions.create', {});
  await ok('sessions.create', {});
  await ok('sessions.open', { sessionId: a.id });
  expect(await ok('app.bootstrap', {})).toMatchObject({ lastSessionId: a.id });
});

test('opening a conversation emits session_start: open when it is empty, resume when it has messages', async () => {
  const s = await ok<{ id: string }>('sessions.create', {});
  const seen: unknown[] = [];
  const sub = app.agent.onDidEmit((e) => seen.push(e));
  await ok('sessions.open', { sessionId: s.id });
  app.sessions.appendMany(s.id, [{ type: 'message', message: { role: 'user', content: 'hi' } }]);
  await ok('sessions.open', { sessionId: s.id });
  sub.dispose();
  expect(seen).toEqual([
    { type: 'session_start', sessionId: s.id, runId: '', reason: 'open' },
    { type: 'session_start', sessionId: s.id, runId: '', reason: 'resume' },
  ]);
});

test('labels show in the tree, and clearing one removes it', async () => {
  const s = await ok<{ id: string }>('sessions.create', {});
  const [u] = app.sessions.appendMany(s.id, [{ type: 'message', message: { role: 'user', content: 'mark me' } }]);
  await ok('entries.label', { sessionId: s.id, targetId: u!.id, label: 'start' });
  let tree = await ok<{ nodes: { id: string; label: string | null }[] }>('sessions.tree', { sessionId: s.id });
  expect(tree.nodes.find((n) => n.id === u!.id)?.label).toBe('start');
  await ok('entries.label', { sessionId: s.id, targetId: u!.id, label: null });
  tree = await ok('sessions.tree', { sessionId: s.id });
  expect(tree.nodes.find((n) => n.id === u!.id)?.label).toBeNull();
});

test('sending before a model is set up says how to fix it', async () => {
  const s = await ok<{ id: string }>('sessions.create', {});
  const r = await api.call('chat.send', { sessionId: s.id, text: 'hi' });
  expect(r).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('Set up a provider') } });
});

test('saving a provider checks the model and marks setup done with it as the default', async () => {
  const bad = await api.call('providers.save', { providerId: 'ollama', baseUrl: 'http://127.0.0.1:1/v1', model: '  ' });
  expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(await ok('app.bootstrap', {})).toMatchObject({ providerConfigured: false });
  await ok('providers.save', { providerId: 'ollama', baseUrl: 'http://127.0.0.1:1/v1', model: 'llama3.2' });
  expect(await ok('app.bootstrap', {})).toMatchObject({ providerConfigured: true });
  expect(app.defaultModel()).toEqual({ provider: 'ollama', modelId: 'llama3.2' });
});

test('a label hung beside a reply is not counted as another version of it', async () => {
  const s = await ok<{ id: string }>('sessions.create', {});
  const [u, a1] = app.sessions.appendMany(s.id, [user('q'), reply('one')]);
  await ok('sessions.branch', { sessionId: s.id, entryId: u!.id });
  await ok('entries.label', { sessionId: s.id, targetId: u!.id, label: 'here' });
  expect(await ok('sessions.siblings', { sessionId: s.id, entryIds: [a1!.id] })).toEqual({});
  await ok('sessions.branch', { sessionId: s.id, entryId: u!.id });
  const [a2] = app.sessions.appendMany(s.id, [reply('two')]);
  expect(await ok('sessions.siblings', { sessionId: s.id, entryIds: [a2!.id] })).toMatchObject({ [a2!.id]: { ids: [a1!.id, a2!.id], index: 1 } });
});

function user(content: string) {
  return { type: 'message' as const, message: { role: 'user' as const, content } };
}
function reply(text: string) {
  return { type: 'message' as const, message: { role: 'assistant' as const, content: [{ type: 'text' as const, text }], stopReason: 'stop' as const } };
}

test('two windows over one core share its trash, status and commands: a delete in one is undone in the other', async () => {
  const other = createApiRouter(app, { log: () => {} });
  try {
    const s = await ok<{ id: string }>('sessions.create', { title: 'Shared' });
    await ok('sessions.delete', { sessionId: s.id });
    const restored = await other.call('sessions.restore', { sessionId: s.id });
    expect(restored).toMatchObject({ ok: true, value: { id: s.id, title: 'Shared' } });
    // A command run in one window tells every window what it made.
    const heard: string[] = [];
    const listening = other.subscribe((event) => heard.push(event));
    await ok('commands.run', { input: '/new From a command', sessionId: null });
    listening.dispose();
    expect(heard).toContain('session.created');
  } finally {
    other.dispose();
  }
});

test('a closed window stops hearing the core: its router forwards nothing after dispose', async () => {
  const other = createApiRouter(app, { log: () => {} });
  const heard: string[] = [];
  other.subscribe((event) => heard.push(event));
  other.dispose();
  await ok('commands.run', { input: '/new After close', sessionId: null });
  expect(heard).toEqual([]);
});
