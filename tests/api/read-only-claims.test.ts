// A user plugin's "read-only" tool is a write tool until the user confirms the claim in Settings.
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import type { PolicyView } from '../../src/shared/api/index.ts';
import { calls, ScriptedProvider, text } from '../agent/scripted-provider.ts';
import type { AppUnderTest } from '../fixtures/app-under-test.ts';
import { openScriptedApp } from '../fixtures/open-scripted-app.ts';

const USER_PLUGIN = resolve(import.meta.dirname, '../fixtures/user-plugins/hello_user');

let t: AppUnderTest;
let dir: string;
let app: App;
let api: ApiRouter;
let provider: ScriptedProvider;

beforeEach(async () => {
  provider = new ScriptedProvider();
  t = openScriptedApp(provider, {
    prefix: 'amber-claims-',
    before: (d) => {
      mkdirSync(join(d, 'data', 'plugins'), { recursive: true });
      cpSync(USER_PLUGIN, join(d, 'data', 'plugins', 'hello_user'), { recursive: true });
    },
  });
  ({ dir, app, api } = t);
  await app.plugins.rescan();
  if (!app.plugins.get('hello_user').enabled) await app.plugins.setState('hello_user', true, { confirm: true });
});

afterEach(() => t.close());

const call = <T>(channel: string, input: unknown) => t.call<T>(channel, input);

async function runHello(sessionId: string): Promise<{ status: string; text: string }> {
  provider.push(calls({ name: 'hello_user', args: {} }), text('done'));
  await app.agent.prompt(sessionId, 'say hello');
  const results = app.sessions.path(sessionId).flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [e.message] : []));
  const last = results.at(-1)!;
  return { status: String(last.status), text: JSON.stringify(last.content) };
}

test("a user plugin's read-only tool is refused in read mode until confirmed in Settings, and again once revoked", async () => {
  expect(app.plugins.get('hello_user')).toMatchObject({ source: 'user', state: 'active' });
  const session = app.sessions.create({ title: 'claims', cwd: join(dir, 'ws') });
  await call('policy.setMode', { sessionId: session.id, mode: 'read' });

  const before = await runHello(session.id);
  expect(before.status).toBe('denied');
  expect(before.text).toMatch(/not confirmed in Settings/);
  expect((await call<PolicyView>('policy.get', { sessionId: session.id })).readOnlyClaims).toEqual([
    { pluginId: 'hello_user', name: 'Hello (user plugin)', tools: ['hello_user'], confirmed: false },
  ]);

  const confirmed = await call<PolicyView>('policy.confirmReadOnly', { pluginId: 'hello_user', confirmed: true, sessionId: session.id });
  expect(confirmed.readOnlyClaims[0]).toMatchObject({ pluginId: 'hello_user', confirmed: true });
  expect((await runHello(session.id)).status).toBe('ok');

  await call('policy.confirmReadOnly', { pluginId: 'hello_user', confirmed: false });
  expect((await runHello(session.id)).status).toBe('denied');
});

test('only a user plugin can be confirmed: a bundled id, an unknown id and a non-id are refused', async () => {
  const bundled = await api.call('policy.confirmReadOnly', { pluginId: 'workspace_tools', confirmed: true });
  expect(bundled).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringMatching(/no user plugin/) } });
  expect(await api.call('policy.confirmReadOnly', { pluginId: 'ghost', confirmed: true })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  expect(await api.call('policy.confirmReadOnly', { pluginId: '../rules', confirmed: true })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(app.policy.readOnlyConfirmed('workspace_tools')).toBe(false);
});
