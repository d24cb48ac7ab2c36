// Projects over the API: made from a folder, listed, changed and removed, with the window hearing each change;
// a conversation started in one takes its folder and defaults, and a search can be scoped to it. Hostile
// input is refused with a sentence and changes nothing.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Project } from '../../src/shared/projects/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
let site: string;
let api: string;

beforeEach(() => {
  t = openApp({
    prefix: 'amber-projects-api-',
    before: (dir) => {
      mkdirSync(join(dir, 'home', 'site'), { recursive: true });
      mkdirSync(join(dir, 'home', 'api'), { recursive: true });
    },
    app: (dir) => ({ home: join(dir, 'home') }),
  });
  site = realpathSync(join(t.dir, 'home', 'site'));
  api = realpathSync(join(t.dir, 'home', 'api'));
});

afterEach(() => t.close());

test('a project is created, listed, changed and removed, and the window hears each change with the list', async () => {
  const made = await t.call<Project>('projects.create', { name: 'Site', folder: site, instructions: 'Answer in French.' });
  expect(made).toMatchObject({ id: 'site', name: 'Site', folder: site, instructions: 'Answer in French.', model: null });
  expect(await t.call<Project[]>('projects.list')).toEqual([made]);
  const changed = await t.call<Project>('projects.update', { id: 'site', change: { thinkingLevel: 'high', name: 'Web site' } });
  expect(changed).toMatchObject({ id: 'site', name: 'Web site', thinkingLevel: 'high' });
  expect(await t.call('projects.remove', { id: 'site' })).toEqual({ ok: true });
  expect(await t.call('projects.list')).toEqual([]);
  const heard = t.events.filter((e) => e.event === 'projects.changed').map((e) => (e.payload as { projects: Project[] }).projects.map((p) => p.name));
  expect(heard).toEqual([['Site'], ['Web site'], []]);
});

test('a conversation started in a project works in its folder with its model, thinking level and policy mode', async () => {
  await t.call('projects.create', { name: 'Site', folder: site, model: { provider: 'local', modelId: 'tiny' }, thinkingLevel: 'low', policyMode: 'read' });
  const session = await t.call<{ id: string; cwd: string }>('sessions.create', { projectId: 'site' });
  expect(session.cwd).toBe(site);
  expect(t.app.sessions.branchState(session.id).model).toEqual({ provider: 'local', modelId: 'tiny' });
  expect(await t.call('chat.getThinking', { sessionId: session.id })).toEqual({ level: 'low' });
  expect(await t.call<{ mode: string }>('policy.get', { sessionId: session.id })).toMatchObject({ mode: 'read' });
  // Started in the project's folder any other way (a folder given, /new when that folder was chosen last), it takes them too.
  const byFolder = await t.call<{ id: string }>('sessions.create', { cwd: site });
  expect(t.app.sessions.branchState(byFolder.id).model).toEqual({ provider: 'local', modelId: 'tiny' });
  await t.call('sessions.setWorkspace', { sessionId: byFolder.id, path: site });
  const viaNew = await t.call<{ openSessionId: string | null }>('commands.run', { input: '/new', sessionId: byFolder.id });
  expect(t.app.sessions.get(viaNew.openSessionId!).cwd).toBe(site);
  expect(await t.call<{ mode: string }>('policy.get', { sessionId: viaNew.openSessionId! })).toMatchObject({ mode: 'read' });
  // A conversation started elsewhere keeps the app's defaults.
  const plain = await t.call<{ id: string }>('sessions.create', { cwd: api });
  expect(t.app.sessions.branchState(plain.id).model).toBeNull();
  expect(await t.call<{ mode: string }>('policy.get', { sessionId: plain.id })).toMatchObject({ mode: 'write' });
});

test("the conversation list and its search can be scoped to a project; moving a conversation's folder moves it", async () => {
  await t.call('projects.create', { name: 'Site', folder: site });
  const inside = await t.call<{ id: string }>('sessions.create', { projectId: 'site', title: 'Header colours' });
  const outside = await t.call<{ id: string }>('sessions.create', { cwd: api, title: 'Header parsing' });
  const scoped = await t.call<{ sessions: { id: string }[] }>('sessions.list', { projectId: 'site' });
  expect(scoped.sessions.map((s) => s.id)).toEqual([inside.id]);
  const searched = await t.call<{ sessions: { id: string }[] }>('sessions.list', { projectId: 'site', query: 'Header' });
  expect(searched.sessions.map((s) => s.id)).toEqual([inside.id]);
  expect((await t.call<{ sessions: unknown[] }>('sessions.list', { query: 'Header' })).sessions).toHaveLength(2);
  await t.call('sessions.setWorkspace', { sessionId: outside.id, path: site });
  const moved = await t.call<{ sessions: { id: string }[] }>('sessions.list', { projectId: 'site' });
  expect(moved.sessions.map((s) => s.id).sort()).toEqual([inside.id, outside.id].sort());
});

test('a conversation with no message yet moved into a project takes its defaults; one with messages keeps its own', async () => {
  await t.call('projects.create', { name: 'Site', folder: site, thinkingLevel: 'high', policyMode: 'read' });
  const empty = await t.call<{ id: string }>('sessions.create', { cwd: api });
  const busy = await t.call<{ id: string }>('sessions.create', { cwd: api });
  t.app.sessions.append(busy.id, { type: 'message', message: { role: 'user', content: 'hello' } });
  await t.call('sessions.setWorkspace', { sessionId: empty.id, path: site });
  await t.call('sessions.setWorkspace', { sessionId: busy.id, path: site });
  expect(await t.call('chat.getThinking', { sessionId: empty.id })).toEqual({ level: 'high' });
  expect(await t.call<{ mode: string }>('policy.get', { sessionId: empty.id })).toMatchObject({ mode: 'read' });
  expect(await t.call('chat.getThinking', { sessionId: busy.id })).toEqual({ level: 'off' });
  expect(await t.call<{ mode: string }>('policy.get', { sessionId: busy.id })).toMatchObject({ mode: 'write' });
});

test('hostile: a duplicate name or folder, a refused folder, a slash in an id and unknown fields are refused and change nothing', async () => {
  await t.call('projects.create', { name: 'Site', folder: site });
  expect(await t.refused('projects.create', { name: 'SITE', folder: api })).toMatchObject({
    code: 'conflict',
    message: expect.stringMatching(/already a project named/),
  });
  expect(await t.refused('projects.create', { name: 'Other', folder: site })).toMatchObject({ code: 'conflict' });
  expect(await t.refused('projects.create', { name: 'Data', folder: t.dataDir })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.create', { name: 'Root', folder: '/' })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.create', { name: 'Rel', folder: '../site' })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.create', { name: '   ', folder: api })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.create', { name: 'x'.repeat(81), folder: api })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.create', { name: 'Extra', folder: api, id: 'mine' })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.create', { name: 'Mode', folder: api, policyMode: 'root' })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.update', { id: 'site/../x', change: {} })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.update', { id: 'site', change: { createdAt: 0 } })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('projects.update', { id: 'gone', change: { name: 'x' } })).toMatchObject({ code: 'not_found' });
  expect(await t.refused('projects.remove', { id: 'a/b' })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('sessions.create', { projectId: 'gone' })).toMatchObject({ code: 'not_found' });
  expect(await t.refused('sessions.create', { projectId: 'site', cwd: api })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('sessions.list', { projectId: 'gone' })).toMatchObject({ code: 'not_found' });
  expect((await t.call<Project[]>('projects.list')).map((p) => p.name)).toEqual(['Site']);
  expect(t.app.sessions.count()).toBe(0);
});

test('/project makes, lists, starts in, instructs and removes a project from the command line', async () => {
  const first = await t.call<{ id: string }>('sessions.create', { cwd: site });
  const run = async (input: string, sessionId = first.id) =>
    await t.call<{ result: { kind: string; text: string }; openSessionId: string | null }>('commands.run', { input, sessionId });
  expect((await run('/project')).result.text).toContain('No project yet');
  expect((await run('/project new Web site')).result).toEqual({ kind: 'ok', text: expect.stringContaining(`Made ${site} the project Web site`) });
  expect((await run('/project')).result.text).toContain('This conversation is in Web site.');
  expect((await run('/project instructions Use British spelling.')).result.text).toContain('every conversation in Web site');
  expect(t.app.projects.get('web-site').instructions).toBe('Use British spelling.');
  const started = await run('/project start web site');
  expect(started.result.text).toBe('Started a conversation in Web site.');
  expect(started.openSessionId).not.toBeNull();
  expect(t.app.sessions.get(started.openSessionId!).cwd).toBe(site);
  const other = await t.call<{ id: string }>('sessions.create', { cwd: api });
  expect((await run(`/workspace ${site}`, other.id)).result.text).toBe(`This conversation now works in ${site}, in the project Web site.`);
  expect((await run('/project new Again')).result).toMatchObject({
    kind: 'error',
    text: expect.stringContaining('already the folder of the project "Web site"'),
  });
  expect((await run('/project start nowhere')).result).toMatchObject({ kind: 'error', text: expect.stringContaining('There is no project "nowhere"') });
  expect((await run('/project remove Web site')).result.text).toContain('Removed the project Web site');
  expect(await t.call('projects.list')).toEqual([]);
});
