import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import type { PanelView, PluginListing, PluginView, PolicyView, StatusBarView } from '../../src/shared/api/index.ts';
import type { CommandView } from '../../src/shared/commands/index.ts';
import { type AppUnderTest, openApp, type RecordedEvent } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
let app: App;
let api: ApiRouter;
let events: RecordedEvent[];

beforeEach(() => {
  t = openApp({ prefix: 'amber-settings-', app: (dir) => ({ dataDir: dir }) });
  ({ app, api, events } = t);
});

afterEach(() => t.close());

const ok = <T>(channel: string, input: unknown = {}) => t.call<T>(channel, input);

const run = (input: string, sessionId: string | null = null) =>
  ok<{ result: { kind: string; text: string }; openSessionId: string | null }>('commands.run', { input, sessionId });

test('a plugin turned on and off live brings and takes its segment, panel, wallet, allowance and command', async () => {
  const listing = await ok<PluginListing>('plugins.list');
  expect(listing.folder).toBe(join(t.dir, 'plugins'));
  expect(listing.plugins.find((p) => p.id === 'example')).toMatchObject({ category: 'other', enabled: false, source: 'bundled' });

  const on = await ok<PluginView>('plugins.setState', { id: 'example', enabled: true });
  expect(on).toMatchObject({ state: 'active', enabled: true, reason: null });
  expect(on.pid).toBeGreaterThan(0);
  expect(on.contributions.map((c) => c.kind)).toEqual([
    'tool',
    'promptBlock',
    'statusSegment',
    'panel',
    'provider',
    'wallet',
    'allowance',
    'command',
    'hook',
    'hook',
    'hook',
    'hook',
    'hook',
  ]);
  expect((await ok<StatusBarView>('status.list', { sessionId: null })).segments.map((s) => [s.id, s.source])).toContainEqual(['example.greetings', 'example']);
  expect((await ok<PanelView[]>('panels.list')).map((p) => p.id)).toContain('example.panel');
  expect((await ok<{ wallets: { id: string }[] }>('wallets.list')).wallets.map((w) => w.id)).toContain('example.wallet');
  expect(await ok('allowances.list')).toContainEqual(
    expect.objectContaining({ id: 'example.allowance', limit: 100, unit: 'calls', measure: 'other', scope: 'example-echo' }),
  );
  expect((await ok<CommandView[]>('commands.list')).find((c) => c.path.join(' ') === 'example hello')).toMatchObject({ source: 'plugin:example' });
  expect(await run('/example hello there')).toEqual({ result: { kind: 'ok', text: 'hello there' }, openSessionId: null });
  expect(events.map((e) => e.event)).toEqual(
    expect.arrayContaining(['plugins.changed', 'status.changed', 'panels.changed', 'commands.changed', 'allowances.changed']),
  );

  expect((await run('/set plugin off example')).result).toEqual({ kind: 'ok', text: 'Example is off.' });
  expect((await ok<PluginListing>('plugins.list')).plugins.find((p) => p.id === 'example')).toMatchObject({ state: 'deactivated', enabled: false, pid: null });
  expect((await ok<StatusBarView>('status.list', {})).segments.some((s) => s.source === 'example')).toBe(false);
  expect(await ok('panels.list')).toEqual([]);
  expect(await ok('allowances.list')).toEqual([]);
  expect((await run('/example hello')).result).toEqual({ kind: 'error', text: 'unknown command (try /help)' });
});

test('commands: completion, /new, /set policy, /label, /model, an unknown command and a handler error', async () => {
  expect((await ok<{ label: string }[]>('commands.complete', { input: '/set p' })).map((c) => c.label)).toEqual(['plugin', 'plugin.', 'policy', 'policy.']);
  expect((await ok<{ label: string }[]>('commands.complete', { input: '/set plugin on ex' })).map((c) => c.label)).toEqual(['example']);
  expect((await run('/frobnicate')).result).toEqual({ kind: 'error', text: 'unknown command (try /help)' });

  const created = await run('/new Plans');
  expect(created.result.kind).toBe('ok');
  const sessionId = created.openSessionId!;
  expect(app.sessions.get(sessionId).title).toBe('Plans');

  // Setting yolo says what it still asks about.
  expect((await run('/set policy yolo', sessionId)).result).toEqual({
    kind: 'ok',
    text: expect.stringMatching(/^Tool policy: yolo for this conversation\. Changes to protected paths and .* shell lines still ask/),
  });
  expect(await ok<PolicyView>('policy.get', { sessionId })).toMatchObject({ mode: 'yolo', rules: [] });
  expect(events).toContainEqual({ event: 'policy.changed', payload: { sessionId } });

  expect((await run('/label first', sessionId)).result).toEqual({ kind: 'error', text: '/label: There is nothing to label yet: send a message first.' });
  app.sessions.append(sessionId, { type: 'message', message: { role: 'user', content: 'hi' } });
  expect((await run('/label first', sessionId)).result.kind).toBe('ok');
  // /model takes only a provider that is set up, as chat.setModel does.
  expect((await run('/model loopback/fixture-model', sessionId)).result).toEqual({
    kind: 'error',
    text: "/model: No provider 'loopback' is set up; choose one of the models listed.",
  });
  const model = { id: 'fixture-model', contextWindow: 8192, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  app.plugins.registries.providers.register('plugin-loopback', 'loopback', {
    id: 'loopback',
    flavor: 'custom',
    presets: [],
    models: [model],
    stream: async function* () {},
  });
  expect((await run('/model loopback/fixture-model', sessionId)).result.text).toContain('loopback/fixture-model');
  expect(app.sessions.context(sessionId).model).toEqual({ provider: 'loopback', modelId: 'fixture-model' });
  expect((await run('/compact', sessionId)).result).toMatchObject({ kind: 'error', text: expect.stringMatching(/^\/compact: /) });
  expect((await run('/set policy read')).result).toEqual({ kind: 'error', text: '/set policy read: Open a conversation first.' });
});

test('stored rules are listed with where they came from and removed by id, announced by the policy; a stale removal is refused', async () => {
  const chat = app.sessions.create({ title: 'Release notes', cwd: null });
  app.policy.setRules([
    { effect: 'deny', tool: 'bash' },
    { effect: 'allow', folder: '/srv/data', workspace: '/srv', source: { via: 'approval', at: 1, sessionId: chat.id } },
    { effect: 'allow', tool: 'write', source: { via: 'approval', at: 2, sessionId: 'gone' } },
  ]);
  const view = await ok<PolicyView>('policy.get', {});
  expect(view.rules).toHaveLength(3);
  expect(view.ruleSessions).toEqual({ [chat.id]: 'Release notes', gone: null });
  expect(view.approvalTimeoutSeconds).toBeNull();
  const [bash, data] = view.rules;
  const from = events.length;
  expect((await ok<PolicyView>('policy.removeRule', { id: bash!.id })).rules.map((r) => r.id)).toEqual([data!.id, view.rules[2]!.id]);
  expect(events.slice(from)).toContainEqual({ event: 'policy.changed', payload: { sessionId: null } });
  const stale = await api.call('policy.removeRule', { id: bash!.id });
  expect(stale).toMatchObject({ ok: false, error: { code: 'not_found' } });
});

test('hostile: policy.removeRule and policy.setApprovalTimeout refuse bad shapes, unknown ids and huge strings', async () => {
  app.policy.setRules([{ effect: 'deny', tool: 'bash' }]);
  for (const input of [
    {},
    { id: '' },
    { id: 'x'.repeat(101) },
    { id: 5 },
    { index: 0, rule: { effect: 'deny', tool: 'bash' } },
    { id: 'a', extra: true },
    null,
  ]) {
    expect(await api.call('policy.removeRule', input), JSON.stringify(input)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  }
  expect(await api.call('policy.removeRule', { id: 'no-such-rule' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  for (const seconds of [0, -5, 2.5, 86_401, '30', 1e308]) {
    expect(await api.call('policy.setApprovalTimeout', { seconds }), String(seconds)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  }
  expect(app.policy.rules()).toHaveLength(1);
  expect((await ok<PolicyView>('policy.setApprovalTimeout', { seconds: 45 })).approvalTimeoutSeconds).toBe(45);
  expect((await ok<PolicyView>('policy.setApprovalTimeout', { seconds: null })).approvalTimeoutSeconds).toBeNull();
});

test('the core status segments: model, tokens in and out, cost and context use, in priority order', async () => {
  const s = app.sessions.create({ title: 't', cwd: null });
  app.sessions.append(s.id, { type: 'model_change', provider: 'loopback', modelId: 'm1' });
  app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: 'hi' } });
  app.sessions.append(s.id, {
    type: 'message',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'hello' }],
      stopReason: 'stop',
      usage: { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.0123 } },
    },
  });
  const bar = await ok<StatusBarView>('status.list', { sessionId: s.id });
  expect(bar.segments.map((x) => x.id)).toEqual(['core.model', 'core.tokens', 'core.cost', 'core.context']);
  expect(bar.segments.map((x) => x.text)).toEqual(['m1', '↑ 1.2k ↓ 300', '$0.01', expect.stringMatching(/^ctx ~/)]);
});

test('the wallet warning threshold is persisted', async () => {
  expect(await ok('wallets.setThreshold', { threshold: 5 })).toEqual({ wallets: [], threshold: 5 });
  expect(app.sessions.getSetting('ui.walletThreshold')).toBe('5');
  expect(await ok('wallets.list')).toEqual({ wallets: [], threshold: 5 });
  expect((await ok<{ folder: string; opened: boolean }>('plugins.openFolder')).opened).toBe(false);
});

test('status.changed carries the new view: a plugin segment comes with the plugins’ segments only, no session’s core ones', async () => {
  await ok<PluginView>('plugins.setState', { id: 'example', enabled: true });
  const changed = events.filter((e) => e.event === 'status.changed').map((e) => e.payload as StatusBarView);
  const last = changed.at(-1)!;
  expect(last.sessionId).toBeNull();
  expect(last.segments.map((s) => [s.id, s.source])).toContainEqual(['example.greetings', 'example']);
  expect(last.segments.some((s) => s.source === 'core')).toBe(false);
  expect(last).toEqual(await ok<StatusBarView>('status.list', { sessionId: null }));
});

test('a provider change sends each session shown so far its whole bar again', async () => {
  const s = app.sessions.create({ title: 't', cwd: null });
  app.sessions.append(s.id, { type: 'model_change', provider: 'loopback', modelId: 'm1' });
  await ok<StatusBarView>('status.list', { sessionId: s.id });
  events.length = 0;
  await ok<PluginView>('plugins.setState', { id: 'example', enabled: true });
  const forSession = events
    .filter((e) => e.event === 'status.changed')
    .map((e) => e.payload as StatusBarView)
    .filter((v) => v.sessionId === s.id);
  expect(forSession.length).toBeGreaterThan(0);
  expect(forSession.at(-1)!.segments.map((x) => x.id)).toEqual(expect.arrayContaining(['core.model', 'example.greetings']));
});

test('plugins.setProcess refuses a bundled plugin, an unknown plugin and a value it does not know, and changes nothing', async () => {
  const before = (await ok<PluginListing>('plugins.list')).plugins.find((p) => p.id === 'example');
  expect(before).toMatchObject({ source: 'bundled', process: 'shared' });
  const bundled = await api.call('plugins.setProcess', { id: 'example', process: 'own' });
  expect(bundled).toMatchObject({
    ok: false,
    error: { code: 'invalid_input', message: "The plugin 'example' ships with Amber; where it runs is set by its manifest." },
  });
  for (const input of [
    { id: 'example', process: 'everywhere' },
    { id: 'example', process: 'shared', group: 'bundled' },
    { id: '', process: 'own' },
    { id: 'x'.repeat(65), process: 'own' },
  ]) {
    expect((await api.call('plugins.setProcess', input)).ok).toBe(false);
  }
  expect(await api.call('plugins.setProcess', { id: 'nope', process: 'own' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  expect((await ok<PluginListing>('plugins.list')).plugins.find((p) => p.id === 'example')).toEqual(before);
  expect(app.plugins.get('example').process).toBe('shared');
});

test("panels.opened answers whether the panel's plugin runs, refuses malformed input, and starts nothing for an unknown panel", async () => {
  await ok<PluginView>('plugins.setState', { id: 'example', enabled: true });
  expect(await ok('panels.opened', { panelId: 'example.panel' })).toEqual({ started: true });
  expect(await ok('panels.opened', { panelId: 'no.such.panel' })).toEqual({ started: false });
  for (const input of [{}, { panelId: '' }, { panelId: 'x'.repeat(129) }, { panelId: 'example.panel', start: true }, { panelId: 7 }]) {
    expect(await api.call('panels.opened', input)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  }
});
