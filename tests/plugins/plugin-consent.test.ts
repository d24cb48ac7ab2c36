// User plugins run only with the user's consent: a manifest cannot switch one on, the first switch-on
// needs a confirmation, and both the confirmation and the on/off state survive a restart.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createForkLauncher, PluginService } from '../../src/main/plugins/index.ts';
import type { PluginView } from '../../src/shared/api/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import { openApp } from '../fixtures/app-under-test.ts';
import { createHarness, example, fixture, type Harness, isAlive } from './plugin-harness.ts';

const USER_PLUGIN = resolve(import.meta.dirname, '../fixtures/user-plugins/hello_user');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A data dir holding the hello_user plugin, whose manifest says enabledByDefault. */
function dataDirWithUserPlugin(): string {
  const dir = mkdtempSync(join(tmpdir(), 'amber-consent-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'plugins'));
  cpSync(USER_PLUGIN, join(dir, 'plugins', 'hello_user'), { recursive: true });
  return dir;
}

/**
 * A runtime over `dir` with plugin discovery (the bundled plugins switched off, so only user plugins
 * could start), recording which plugins it launched and their pids.
 */
function runtime(dir: string) {
  const store = SessionStore.open(join(dir, 'amber.db'));
  const fork = createForkLauncher({ execArgv: [] });
  const launched: string[] = [];
  const pids: number[] = [];
  const service = new PluginService({
    store,
    dataDir: dir,
    workspace: dir,
    shutdownGraceMs: 1000,
    launcher: (request) => {
      launched.push(request.pluginId);
      const proc = fork(request);
      if (proc.pid) pids.push(proc.pid);
      return proc;
    },
  });
  for (const p of service.list()) if (p.source === 'bundled') store.setPluginState(p.id, false);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await service.dispose();
    store.close();
    expect(pids.filter(isAlive)).toEqual([]);
  };
  cleanups.push(close);
  return { service, store, launched, close };
}

test('a user plugin whose manifest asks to be on is found Registered and off, and no process is started for it', async () => {
  const r = runtime(dataDirWithUserPlugin());
  await r.service.start();
  expect(r.service.get('hello_user')).toMatchObject({ source: 'user', state: 'registered', enabled: false, pid: null, needsConfirmation: true, declares: [] });
  expect(r.launched).toEqual([]);
  expect(r.service.registries.tools.size).toBe(0);
});

test('switching on a never-confirmed user plugin is refused with a sentence pointing to Settings; nothing starts or is saved', async () => {
  const r = runtime(dataDirWithUserPlugin());
  await r.service.start();
  await expect(r.service.setState('hello_user', true)).rejects.toMatchObject({
    code: 'denied',
    message:
      'Hello (user plugin) is a plugin you added, and it has not been switched on before: turn it on in Settings → Plugins, which shows what it will be able to do and asks you to confirm.',
  });
  await expect(r.service.setState('hello_user', true, { confirm: false })).rejects.toMatchObject({ code: 'denied' });
  expect(r.launched).toEqual([]);
  expect(r.store.pluginStates().has('hello_user')).toBe(false);
  expect(r.service.get('hello_user')).toMatchObject({ state: 'registered', enabled: false, needsConfirmation: true });
});

test('a confirmed user plugin runs, and after a restart it is still on and confirmed; switched off, it stays off', async () => {
  const dir = dataDirWithUserPlugin();
  const first = runtime(dir);
  await first.service.start();
  expect(await first.service.setState('hello_user', true, { confirm: true })).toMatchObject({
    state: 'active',
    enabled: true,
    needsConfirmation: false,
    declares: ['tool', 'statusSegment'],
  });
  await first.close();

  const second = runtime(dir);
  await second.service.start();
  expect(second.service.get('hello_user')).toMatchObject({ state: 'active', enabled: true, needsConfirmation: false });
  expect(second.launched).toEqual(['hello_user']);
  // Off and on again: the confirmation is remembered, so no second question.
  expect(await second.service.setState('hello_user', false)).toMatchObject({ state: 'deactivated', enabled: false, declares: ['tool', 'statusSegment'] });
  expect(await second.service.setState('hello_user', true)).toMatchObject({ state: 'active' });
  await second.service.setState('hello_user', false);
  await second.close();

  const third = runtime(dir);
  await third.service.start();
  expect(third.service.get('hello_user')).toMatchObject({ state: 'registered', enabled: false, needsConfirmation: false });
  expect(third.launched).toEqual([]);
});

test('an on-state saved for a user plugin without a confirmation does not start it', async () => {
  const dir = dataDirWithUserPlugin();
  const store = SessionStore.open(join(dir, 'amber.db'));
  store.setPluginState('hello_user', true);
  store.close();
  const r = runtime(dir);
  await r.service.start();
  expect(r.service.get('hello_user')).toMatchObject({ state: 'registered', enabled: false, needsConfirmation: true });
  expect(r.launched).toEqual([]);
});

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

test('bundled plugins keep their manifest defaults; a user plugin with the same manifest stays off', async () => {
  const asUser = { ...fixture('echo', { id: 'user_echo', enabledByDefault: true }), source: 'user' as const };
  h = createHarness([fixture('echo'), example({ enabledByDefault: false }), asUser]);
  await h.service.start();
  expect(h.service.list().map((p) => [p.id, p.enabled, p.state, p.needsConfirmation])).toEqual([
    ['echo', true, 'active', false],
    ['example', false, 'registered', false],
    ['user_echo', false, 'registered', true],
  ]);
});

test('over the API and /set plugin on, a never-confirmed user plugin is refused with the sentence; plugins.setState with confirm starts it', async () => {
  const under = openApp({
    prefix: 'amber-consent-',
    before: (dir) => {
      mkdirSync(join(dir, 'plugins'));
      cpSync(USER_PLUGIN, join(dir, 'plugins', 'hello_user'), { recursive: true });
    },
    app: (dir) => ({ dataDir: dir, workspace: dir }),
  });
  cleanups.push(() => under.close());
  const { app, api } = under;
  const refusal =
    'Hello (user plugin) is a plugin you added, and it has not been switched on before: turn it on in Settings → Plugins, which shows what it will be able to do and asks you to confirm.';
  expect(await api.call('plugins.setState', { id: 'hello_user', enabled: true })).toEqual({ ok: false, error: { code: 'denied', message: refusal } });
  const command = await api.call('commands.run', { input: '/set plugin on hello_user', sessionId: null });
  expect(command).toMatchObject({ ok: true, value: { result: { kind: 'error', text: `/set plugin on: ${refusal}` } } });
  expect(app.plugins.get('hello_user')).toMatchObject({ state: 'registered', enabled: false, pid: null });

  const confirmed = await api.call('plugins.setState', { id: 'hello_user', enabled: true, confirm: true });
  expect(confirmed).toMatchObject({
    ok: true,
    value: { state: 'active', needsConfirmation: false, declares: ['tool', 'statusSegment'] } satisfies Partial<PluginView>,
  });
  expect(await api.call('commands.run', { input: '/set plugin off hello_user', sessionId: null })).toMatchObject({
    ok: true,
    value: { result: { kind: 'ok', text: 'Hello (user plugin) is off.' } },
  });
  expect(await api.call('commands.run', { input: '/set plugin on hello_user', sessionId: null })).toMatchObject({
    ok: true,
    value: { result: { kind: 'ok', text: 'Hello (user plugin) is on.' } },
  });
});
