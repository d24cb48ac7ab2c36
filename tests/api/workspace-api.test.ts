// The workspace folder over the API: what it accepts, and what a hostile caller cannot make it do.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp, type RecordedEvent } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
let dir: string;
let home: string;
let app: App;
let events: RecordedEvent[];

beforeEach(() => {
  t = openApp({
    prefix: 'amber-ws-api-',
    before: (d) => mkdirSync(join(d, 'home', 'project'), { recursive: true }),
    app: (d) => ({ home: join(d, 'home'), installDirs: [join(d, 'install')] }),
  });
  ({ dir, app, events } = t);
  home = join(dir, 'home');
});

afterEach(() => t.close());

const call = <T>(channel: string, input: unknown) => t.result<T>(channel, input);

test('sessions.create takes a cwd as the conversation workspace, checked and stored as its real path', async () => {
  symlinkSync(join(home, 'project'), join(home, 'link'));
  const r = await call<{ id: string; cwd: string }>('sessions.create', { title: 't', cwd: join(home, 'link') });
  expect(r.ok && r.value.cwd).toBe(join(home, 'project'));
});

test('without a cwd a new conversation takes ~/Amber first, then the folder used last, never the process folder', async () => {
  const first = await call<{ id: string; cwd: string }>('sessions.create', {});
  expect(first.ok && first.value.cwd).toBe(join(home, 'Amber'));
  if (!first.ok) return;
  await call('sessions.setWorkspace', { sessionId: first.value.id, path: join(home, 'project') });
  const second = await call<{ cwd: string }>('sessions.create', {});
  expect(second.ok && second.value.cwd).toBe(join(home, 'project'));
});

test.each([
  ['the disk root', '/', /whole disk/],
  ['the home folder', '~', /home folder/],
  ['a system folder', '/etc', /system folder/],
  ['the data folder', 'DATA', /data folder/],
  ['inside the data folder', 'DATA/plugin-data', /data folder/],
  ['a relative path', 'project', /not a full path/],
  ['a traversal to the root', '~/project/../../../../../../..', /whole disk/],
  ['a NUL byte', '~/project\u0000/etc', /NUL/],
])('sessions.create refuses %s as a workspace and creates nothing', async (_what, raw, reason) => {
  mkdirSync(join(dir, 'data', 'plugin-data'), { recursive: true });
  const cwd = raw.replace('DATA', join(dir, 'data'));
  const before = app.sessions.count();
  const r = await call('sessions.create', { cwd });
  expect(r.ok).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.message).toMatch(reason);
  }
  expect(app.sessions.count()).toBe(before);
});

test('sessions.setWorkspace refuses a link into the data folder and leaves the folder as it was', async () => {
  mkdirSync(join(dir, 'data'), { recursive: true });
  symlinkSync(join(dir, 'data'), join(home, 'sneaky'));
  const s = await call<{ id: string; cwd: string }>('sessions.create', { cwd: join(home, 'project') });
  if (!s.ok) throw new Error('create failed');
  const r = await call('sessions.setWorkspace', { sessionId: s.value.id, path: join(home, 'sneaky') });
  expect(r.ok).toBe(false);
  expect(app.sessions.get(s.value.id).cwd).toBe(join(home, 'project'));
  const ok = await call<{ cwd: string }>('sessions.setWorkspace', { sessionId: s.value.id, path: '~/project' });
  expect(ok.ok && ok.value.cwd).toBe(join(home, 'project'));
  expect(events.some((e) => e.event === 'session.updated')).toBe(true);
});

test('workspace.complete lists folders only, and survives odd input', async () => {
  mkdirSync(join(home, 'projects-b'));
  const r = await call<{ folders: string[] }>('workspace.complete', { input: '~/proj' });
  expect(r.ok && r.value.folders).toEqual([join(home, 'project'), join(home, 'projects-b')]);
  for (const input of ['\u0000', '../../../../etc/', '~'.repeat(4000), '/proc/self/fd/']) {
    const odd = await call<{ folders: string[] }>('workspace.complete', { input });
    expect(odd.ok).toBe(true);
  }
  expect((await call('workspace.complete', { input: 'x'.repeat(5000) })).ok).toBe(false);
});

test('workspace.pick says the headless shell has no picker, so the window shows its path field', async () => {
  const s = await call<{ id: string }>('sessions.create', { cwd: join(home, 'project') });
  if (!s.ok) throw new Error('create failed');
  expect(await call('workspace.pick', { sessionId: s.value.id })).toEqual({ ok: true, value: { supported: false, session: null } });
});

test('workspace.pick with a picker sets the folder chosen, checked like any other', async () => {
  const picks = [join(home, 'project'), join(dir, 'data')];
  const withPicker = createApiRouter(app, { log: () => {}, pickFolder: async () => picks.shift() ?? null });
  mkdirSync(join(dir, 'data'), { recursive: true });
  const s = app.sessions.create({ cwd: null });
  const first = await withPicker.call('workspace.pick', { sessionId: s.id });
  expect(first).toMatchObject({ ok: true, value: { supported: true, session: { cwd: join(home, 'project') } } });
  const refused = await withPicker.call('workspace.pick', { sessionId: s.id });
  expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(await withPicker.call('workspace.pick', { sessionId: s.id })).toMatchObject({ ok: true, value: { session: null } });
  withPicker.dispose();
});
