// Scheduled tasks over the API: what a task takes, the owner events a change raises, and what a hostile caller
// cannot make it do (garbage schedules, folders outside what a conversation may use, tools that do not exist,
// prompts too big, junk ids) — nothing is stored when refused.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ScheduledTask } from '../../src/shared/schedule/index.ts';
import type { OfferedTool } from '../../src/shared/tools/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { testTools } from '../subagents/subagent-rig.ts';

let t: AppUnderTest;
let home: string;

beforeEach(() => {
  t = openApp({
    prefix: 'amber-schedule-api-',
    before: (d) => mkdirSync(join(d, 'home', 'project'), { recursive: true }),
    app: (d) => ({
      home: join(d, 'home'),
      installDirs: [join(d, 'install')],
      tools: testTools([]),
      scheduler: { start: true },
      // The default model is always a model a task may name.
      defaultModel: { provider: 'loopback', modelId: 'fixture-model' },
    }),
  });
  home = join(t.dir, 'home');
});

afterEach(() => t.close());

const good = () => ({ name: 'Standup notes', prompt: 'Summarise the notes.', folder: join(home, 'project'), schedule: 'FREQ=DAILY;BYHOUR=9', tools: ['note'] });

test('a task is added, listed with its next run, paused, resumed and deleted; each change is a schedule.changed event', async () => {
  const task = await t.call<ScheduledTask>('schedule.add', { ...good(), model: 'loopback/fixture-model' });
  expect(task).toMatchObject({
    name: 'Standup notes',
    folder: join(home, 'project'),
    project: null,
    model: 'loopback/fixture-model',
    schedule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0',
    when: 'daily at 09:00',
    tools: ['note'],
    paused: false,
    running: false,
    runs: [],
  });
  expect(task.nextRunAt).toBeGreaterThan(Date.now());
  expect(task.nextRunAt! - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
  expect((await t.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks.map((x) => x.id)).toEqual([task.id]);
  const changes = () => t.events.filter((e) => e.event === 'schedule.changed').length;
  expect(changes()).toBe(1);
  expect(await t.call('schedule.setPaused', { id: task.id, paused: true })).toMatchObject({ paused: true, nextRunAt: null });
  expect(await t.call('schedule.setPaused', { id: task.id, paused: false })).toMatchObject({ paused: false, nextRunAt: task.nextRunAt });
  expect(await t.call('schedule.delete', { id: task.id })).toEqual({ ok: true });
  expect(changes()).toBe(4);
  expect((await t.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks).toEqual([]);
});

test('a task in a project takes the project’s folder', async () => {
  const project = await t.call<{ id: string; folder: string }>('projects.create', { name: 'Site', folder: join(home, 'project') });
  const { folder: _folder, ...rest } = good();
  const task = await t.call<ScheduledTask>('schedule.add', { ...rest, project: project.id });
  expect(task).toMatchObject({ project: project.id, folder: project.folder });
  expect(await t.refused('schedule.add', { ...rest, project: 'no-such-project' })).toMatchObject({ code: 'not_found' });
  expect(await t.refused('schedule.add', { ...good(), project: project.id })).toMatchObject({ code: 'invalid_input', message: /either a project or a folder/ });
});

test.each([
  ['a garbage schedule', { schedule: 'every day at nine' }, /not a part of a schedule Amber reads/],
  ['a schedule with a year frequency', { schedule: 'FREQ=YEARLY;BYHOUR=9' }, /starts with FREQ=MINUTELY, HOURLY, DAILY or WEEKLY/],
  ['an hour out of range', { schedule: 'FREQ=DAILY;BYHOUR=25' }, /BYHOUR must be a whole number from 0 to 23/],
  ['a schedule too long', { schedule: `FREQ=DAILY;BYHOUR=9;${'BYMINUTE=1;'.repeat(30)}` }, /200/],
  ['the disk root as its folder', { folder: '/' }, /whole disk/],
  ['the home folder as its folder', { folder: '~' }, /home folder/],
  ['a system folder', { folder: '/etc' }, /system folder/],
  ['the data folder', { folder: 'DATA' }, /data folder/],
  ['a traversal out of a folder', { folder: '~/project/../../../../../../..' }, /whole disk/],
  ['a relative folder', { folder: 'project' }, /not a full path/],
  ['a folder that does not exist', { folder: '~/nowhere' }, /does not exist|not found|no folder/i],
  ['a tool that does not exist', { tools: ['note', 'rm_rf'] }, /There is no tool named rm_rf; a task may list note, todo, wait, write\./],
  ['a shell prefix of a tool that does not exist', { tools: ['sh:npm test'] }, /There is no tool named sh/],
  ['the task tool', { tools: ['task'] }, /(cannot use task|no tool named task)/],
  ['a tool name with spaces', { tools: ['rm -rf /'] }, /name a tool/],
  ['too many tools', { tools: Array.from({ length: 51 }, () => 'note') }, /50/],
  ['a huge prompt', { prompt: 'x'.repeat(20_001) }, /20000|20,000/],
  ['an empty prompt', { prompt: '   ' }, /prompt/],
  ['a model that is not provider/model', { model: 'gpt' }, /provider\/model/],
  ['a model of an account nobody set up', { model: 'nobody/gpt-5' }, /^There is no account named nobody; set one up in Settings → Models first\.$/],
  ['an unknown field', { owner: 'root' }, /owner/],
])('schedule.add refuses %s and stores nothing', async (_what, change, message) => {
  const input = { ...good(), ...change };
  if (input.folder === 'DATA') input.folder = t.dataDir;
  if (input.folder.startsWith('~')) input.folder = home + input.folder.slice(1);
  const error = await t.refused('schedule.add', input);
  expect(['invalid_input', 'not_found']).toContain(error.code);
  expect(error.message).toMatch(message);
  expect((await t.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks).toEqual([]);
  expect(t.events.filter((e) => e.event === 'schedule.changed')).toEqual([]);
});

test.each([
  ['schedule.runNow', { id: 'nope' }, 'not_found'],
  ['schedule.runNow', { id: '' }, 'invalid_input'],
  ['schedule.runNow', { id: 'x'.repeat(129) }, 'invalid_input'],
  ['schedule.setPaused', { id: 'nope', paused: true }, 'not_found'],
  ['schedule.setPaused', { id: 'nope', paused: 'yes' }, 'invalid_input'],
  ['schedule.delete', { id: 'nope' }, 'not_found'],
  ['schedule.delete', { id: 42 }, 'invalid_input'],
  ['schedule.list', { all: true }, 'invalid_input'],
])('%s refuses %j', async (channel, input, code) => {
  expect((await t.refused(channel, input)).code).toBe(code);
});

test('/schedule adds a task in the conversation’s folder, lists, pauses, resumes and deletes it by name', async () => {
  const sessionId = (await t.call<{ id: string }>('sessions.create', { cwd: join(home, 'project') })).id;
  const run = async (input: string) => (await t.call<{ result: { kind: string; text: string } }>('commands.run', { input, sessionId })).result;
  expect((await run('/schedule')).text).toMatch(/^No task is scheduled/);
  expect(await run('/schedule add Nightly | FREQ=DAILY;BYHOUR=23 | Tidy the notes | note, write')).toMatchObject({
    kind: 'ok',
    text: expect.stringMatching(new RegExp(`^Scheduled “Nightly” daily at 23:00 in ${join(home, 'project')}; next run `)),
  });
  expect((await run('/schedule')).text).toMatch(/^• Nightly — daily at 23:00, next .*; tools: note, write$/);
  expect((await run('/schedule add Broken | FREQ=NEVER | x')).text).toMatch(/starts with FREQ=/);
  expect((await run('/schedule add only a name')).text).toMatch(/Write it as \/schedule add <name> \| <schedule> \| <prompt>/);
  expect((await run('/schedule pause nightly')).text).toMatch(/^Paused “Nightly”/);
  expect((await run('/schedule')).text).toContain('paused');
  expect((await run('/schedule resume Nightly')).text).toMatch(/^Resumed “Nightly”; next run/);
  expect((await run('/schedule pause nobody')).text).toMatch(/There is no scheduled task named nobody/);
  expect((await run('/schedule delete Nightly')).text).toMatch(/^Deleted “Nightly”/);
  expect((await t.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks).toEqual([]);

  // In a project's folder, the task runs in the project (its folder and defaults follow the project).
  const project = await t.call<{ id: string }>('projects.create', { name: 'Notes', folder: join(home, 'project') });
  expect((await run('/schedule add Weekly | FREQ=WEEKLY;BYDAY=MO;BYHOUR=8 | Plan the week')).text).toMatch(
    new RegExp(`^Scheduled “Weekly” Mon at 08:00 in the project ${project.id}; next run `),
  );
  expect((await t.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks).toMatchObject([{ name: 'Weekly', project: project.id, tools: [] }]);
});

const list = async () => (await t.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks;

test('schedule.update changes every field, keeps the task paused, and works out the next run again', async () => {
  const task = await t.call<ScheduledTask>('schedule.add', good());
  const paused = await t.call<ScheduledTask>('schedule.setPaused', { id: task.id, paused: true });
  const before = t.events.length;
  mkdirSync(join(home, 'other'));
  const changed = await t.call<ScheduledTask>('schedule.update', {
    id: task.id,
    task: {
      name: 'Evening notes',
      prompt: 'Tidy the notes.',
      folder: join(home, 'other'),
      model: 'loopback/fixture-model',
      schedule: 'FREQ=HOURLY;INTERVAL=2',
      tools: ['write', 'wait'],
    },
  });
  expect(changed).toMatchObject({
    id: task.id,
    name: 'Evening notes',
    prompt: 'Tidy the notes.',
    folder: join(home, 'other'),
    model: 'loopback/fixture-model',
    schedule: 'FREQ=HOURLY;INTERVAL=2',
    when: 'every 2 hours',
    tools: ['write', 'wait'],
    paused: true,
    nextRunAt: null,
    createdAt: paused.createdAt,
  });
  // A new schedule counts from the change: resumed, the task is due two hours on, not at the old daily time.
  const resumed = await t.call<ScheduledTask>('schedule.setPaused', { id: task.id, paused: false });
  expect(resumed.anchor).toBeGreaterThanOrEqual(task.createdAt);
  expect(resumed.nextRunAt! - resumed.anchor).toBe(2 * 3_600_000);
  expect(t.events.slice(before).filter((e) => e.event === 'schedule.changed')).toHaveLength(2);
  // An unpaused task's next run follows its new schedule at once.
  const daily = await t.call<ScheduledTask>('schedule.update', { id: task.id, task: { ...good(), schedule: 'FREQ=DAILY;BYHOUR=7;BYMINUTE=15' } });
  expect(daily.paused).toBe(false);
  expect(new Date(daily.nextRunAt!).getHours()).toBe(7);
  expect(new Date(daily.nextRunAt!).getMinutes()).toBe(15);
  expect(await list()).toHaveLength(1);
});

test.each([
  ['a garbage schedule', { schedule: 'every day at nine' }, /not a part of a schedule/],
  ['a tool that does not exist', { tools: ['rm_rf'] }, /There is no tool named rm_rf/],
  ['a folder outside what a conversation may use', { folder: '/' }, /whole disk/],
  ['an account nobody set up', { model: 'evil/model' }, /There is no account named evil/],
  ['an unknown field', { owner: 'root' }, /owner/],
  ['neither a project nor a folder', { folder: null }, /either a project or a folder/],
])('schedule.update refuses %s and leaves the task as it was', async (_what, change, message) => {
  const task = await t.call<ScheduledTask>('schedule.add', good());
  const before = t.events.length;
  const error = await t.refused('schedule.update', { id: task.id, task: { ...good(), ...change } });
  expect(['invalid_input', 'not_found']).toContain(error.code);
  expect(error.message).toMatch(message);
  expect(await list()).toEqual([task]);
  expect(t.events.slice(before)).toEqual([]);
});

test.each([
  [{ id: 'nope', task: 'GOOD' }, 'not_found'],
  [{ id: '', task: 'GOOD' }, 'invalid_input'],
  [{ id: 'x'.repeat(129), task: 'GOOD' }, 'invalid_input'],
  [{ id: 'nope' }, 'invalid_input'],
  [{ id: 'nope', task: 'all of it' }, 'invalid_input'],
  [{ id: 'nope', task: 'GOOD', paused: false }, 'invalid_input'],
  [{ task: 'GOOD' }, 'invalid_input'],
])('schedule.update refuses %j', async (input, code) => {
  const sent = 'task' in input && input.task === 'GOOD' ? { ...input, task: good() } : input;
  expect((await t.refused('schedule.update', sent)).code).toBe(code);
});

test('a model is checked against the accounts set up: by id or by name, stored by id; an unknown one is named', async () => {
  await t.call('providers.save', { providerId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen3', name: 'vLLM box' });
  const account = (await t.call<{ id: string; name: string }[]>('providers.connections')).find((c) => c.name === 'vLLM box')!;
  const byName = await t.call<ScheduledTask>('schedule.add', { ...good(), model: 'vllm BOX/qwen3' });
  expect(byName.model).toBe(`${account.id}/qwen3`);
  const byId = await t.call<ScheduledTask>('schedule.update', { id: byName.id, task: { ...good(), name: 'By id', model: `${account.id}/qwen3` } });
  expect(byId).toMatchObject({ name: 'By id', model: `${account.id}/qwen3` });
  // The account lists its models: one it does not list is named with the ones it does.
  expect(await t.refused('schedule.update', { id: byName.id, task: { ...good(), model: `${account.id}/qwen3-big` } })).toMatchObject({
    code: 'invalid_input',
    message: 'vLLM box lists no model qwen3-big; it lists qwen3 (Refresh models if it is new).',
  });
  expect(await t.refused('schedule.add', { ...good(), model: 'llama box/qwen3' })).toMatchObject({
    code: 'invalid_input',
    message: `There is no account named llama box; the accounts are vLLM box (${account.id}).`,
  });
});

test('tools.list names each tool the agent can be offered, and a plugin’s tools while it is off, unavailable with why; a task cannot list those', async () => {
  const tools = async () => (await t.call<{ tools: OfferedTool[] }>('tools.list')).tools;
  const now = await tools();
  expect(now.filter((x) => x.available).map((x) => x.name)).toEqual(expect.arrayContaining(['note', 'write', 'wait']));
  expect(now.find((x) => x.name === 'note')).toEqual({
    name: 'note',
    description: 'Notes a thing.',
    readOnly: true,
    shell: false,
    plugin: null,
    available: true,
    reason: null,
  });
  // The workspace tools' plugin is not started in this core: its manifest's tools are listed, unavailable.
  await t.call('plugins.setState', { id: 'workspace_tools', enabled: false });
  const off = await tools();
  expect(off.find((x) => x.name === 'bash')).toMatchObject({
    shell: true,
    plugin: { id: 'workspace_tools', name: 'Workspace tools' },
    available: false,
    reason: 'Workspace tools is off: turn it on in Settings → Plugins.',
  });
  expect(await t.refused('schedule.add', { ...good(), tools: ['note', 'bash:npm test'] })).toMatchObject({
    code: 'invalid_input',
    message: 'bash comes from Workspace tools, which cannot run now: Workspace tools is off: turn it on in Settings → Plugins. Or leave bash out.',
  });
  expect(await list()).toEqual([]);
  expect((await t.refused('tools.list', { plugin: 'x' })).code).toBe('invalid_input');
});

test('/schedule edit changes the fields it names and leaves the rest', async () => {
  const sessionId = (await t.call<{ id: string }>('sessions.create', { cwd: join(home, 'project') })).id;
  const run = async (input: string) => (await t.call<{ result: { kind: string; text: string } }>('commands.run', { input, sessionId })).result;
  await run('/schedule add Nightly | FREQ=DAILY;BYHOUR=23 | Tidy the notes | note');
  expect((await run('/schedule edit nightly | schedule=FREQ=MINUTELY;INTERVAL=45 | tools=note, write | name=Tidy')).text).toMatch(
    /^Changed “Tidy”: every 45 minutes; tools: note, write; next run \d{4}-\d\d-\d\d \d\d:\d\d\.$/,
  );
  expect(await list()).toMatchObject([{ name: 'Tidy', prompt: 'Tidy the notes', schedule: 'FREQ=MINUTELY;INTERVAL=45', tools: ['note', 'write'] }]);
  await run('/schedule pause Tidy');
  expect((await run('/schedule edit Tidy | prompt=Tidy the notes twice')).text).toMatch(/; paused\.$/);
  expect((await list())[0]).toMatchObject({ prompt: 'Tidy the notes twice', paused: true });
  expect((await run('/schedule edit Tidy | colour=red')).text).toMatch(/'colour=red' is not a change; write it as \/schedule edit/);
  expect((await run('/schedule edit Tidy')).text).toMatch(/Write it as \/schedule edit/);
  expect((await run('/schedule edit Tidy | model=nobody/x')).text).toMatch(/There is no account named nobody/);
  expect((await run('/schedule edit Ghost | name=x')).text).toMatch(/There is no scheduled task named Ghost/);
  expect((await list())[0]).toMatchObject({ name: 'Tidy', prompt: 'Tidy the notes twice', tools: ['note', 'write'] });
});
