// /get and /set over the settings index: Amber's own settings by name (from the table in shared) beside the
// plugins' plugin.<id>.<key>, completed step by step, and refused with a sentence — storing nothing — when
// the name is unknown or the value does not fit.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import { SETTINGS_INDEX } from '../../src/shared/settings/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
let app: App;
let sessionId: string;

beforeEach(() => {
  t = openApp({ prefix: 'amber-settings-commands-', app: (dir) => ({ home: join(dir, 'home') }) });
  app = t.app;
  mkdirSync(join(t.dir, 'home'), { recursive: true });
  sessionId = app.sessions.create({ title: 'Settings', cwd: null }).id;
});

afterEach(() => t.close());

type Result = { kind: string; text: string };
const run = async (input: string, session: string | null = sessionId): Promise<Result> =>
  (await t.call<{ result: Result }>('commands.run', { input, sessionId: session })).result;
/** Past the API's own cap on a command line: straight to the command tree, as a caller inside main would. */
const runInside = (input: string): Promise<Result> => app.commands.tree.run(input, { sessionId });
const complete = async (input: string): Promise<string[]> => (await t.call<{ label: string }[]>('commands.complete', { input })).map((c) => c.label);

/** Every raw value the settings table holds for the keys these commands can write. */
const stored = (): Record<string, string | null> =>
  Object.fromEntries(
    ['policy.mode.', 'policy.approvalTimeoutSeconds', 'sandbox.network', 'sandbox.network.', 'agent.instructions', 'agent.instructions.'].map((k) => {
      const key = k.endsWith('.') ? `${k}${sessionId}` : k;
      return [key, app.sessions.getSetting(key)];
    }),
  );

test('/get and /set read and change the core settings by name, each through its owner', async () => {
  expect(await run('/get policy.mode')).toEqual({ kind: 'ok', text: 'policy.mode is write (the default).' });
  expect((await run('/set policy.mode read')).text).toBe('Tool policy: read for this conversation.');
  expect(app.policy.mode(sessionId)).toBe('read');
  expect(await run('/get policy.mode')).toEqual({ kind: 'ok', text: 'policy.mode is read.' });
  // /set with a name alone shows it, as /get does.
  expect((await run('/set policy.mode')).text).toBe('policy.mode is read.');

  expect((await run('/set policy.approvalTimeoutSeconds 90')).kind).toBe('ok');
  expect(app.policy.approvalTimeout()).toBe(90);
  expect((await run('/get policy.approvalTimeoutSeconds')).text).toBe('policy.approvalTimeoutSeconds is 90 seconds.');
  expect((await run('/set policy.approvalTimeoutSeconds none')).kind).toBe('ok');
  expect(app.policy.approvalTimeout()).toBeNull();

  expect((await run('/set sandbox.network on')).kind).toBe('ok');
  expect(app.sandbox.network()).toBe(true);
  expect((await run('/set sandbox.network.conversation off')).kind).toBe('ok');
  expect(app.sandbox.sessionNetwork(sessionId)).toBe(false);
  expect((await run('/get sandbox.network.conversation')).text).toBe('sandbox.network.conversation is off.');
  expect((await run('/set sandbox.network.conversation default')).kind).toBe('ok');
  expect(app.sandbox.sessionNetwork(sessionId)).toBeNull();

  expect((await run('/set agent.instructions Answer in French.')).kind).toBe('ok');
  expect((await run('/set agent.instructions.conversation Be brief.')).kind).toBe('ok');
  expect(app.systemPrompt.instructions(sessionId)).toEqual({ global: 'Answer in French.', conversation: 'Be brief.' });
  expect((await run('/get agent.instructions.conversation')).text).toBe('agent.instructions.conversation is “Be brief.”.');
  expect((await run('/set agent.instructions.conversation clear')).kind).toBe('ok');
  expect(app.systemPrompt.instructions(sessionId).conversation).toBe('');

  // A model is set only for a provider that is set up (the one check /model and chat.setModel share).
  expect((await run('/set model fake/model-b')).text).toBe("/set: No provider 'fake' is set up; choose one of the models listed.");
  const model = { id: 'model-b', contextWindow: 8192, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  app.plugins.registries.providers.register('plugin-fake', 'fake', {
    id: 'fake',
    flavor: 'custom',
    presets: [],
    models: [model],
    stream: async function* () {},
  });
  expect((await run('/set model fake/model-b')).text).toBe('The model is now fake/model-b; the next reply uses it.');
  expect((await run('/get model')).text).toBe('model is fake/model-b.');
  expect((await run('/set thinking high')).kind).toBe('ok');
  expect((await run('/get thinking')).text).toBe('thinking is high.');

  const folder = join(t.dir, 'home', 'project');
  mkdirSync(folder);
  expect((await run(`/set workspace ${folder}`)).kind).toBe('ok');
  expect(app.workspaces.of(sessionId)).toBe(folder);
});

test('a name may be shortened to the end of exactly one after a dot; an end that fits several says which', async () => {
  expect(await run('/get mode')).toEqual({ kind: 'ok', text: 'policy.mode is write (the default).' });
  expect((await run('/set approvalTimeoutSeconds 30')).kind).toBe('ok');
  expect(app.policy.approvalTimeout()).toBe(30);
  expect(await run('/set conversation off')).toEqual({
    kind: 'error',
    text: '/set: “conversation” could be sandbox.network.conversation or agent.instructions.conversation: type the whole name.',
  });
  expect(app.sandbox.sessionNetwork(sessionId)).toBeNull();
  expect((await run('/get ode')).text).toMatch(/There is no setting “ode”/);
});

test('/get alone lists every setting of the index with its value; outside a conversation, per-conversation ones say so', async () => {
  const listed = (await run('/get')).text.split('\n');
  expect(listed.map((l) => l.slice(0, l.indexOf(':')))).toEqual(SETTINGS_INDEX.map((e) => e.name));
  expect(listed).toContain('policy.mode: write (the default)');
  const outside = (await run('/get', null)).text;
  expect(outside).toContain('policy.mode: kept per conversation (open one to see it)');
  expect(outside).toContain('sandbox.network: off (the default)');
  expect(await run('/set policy.mode yolo', null)).toEqual({ kind: 'error', text: '/set: policy.mode belongs to a conversation: open one first.' });
});

test('completion offers the names step by step, then the choices, range ends or clear word of the one named', async () => {
  expect(await complete('/set p')).toEqual(['plugin', 'plugin.', 'policy', 'policy.']);
  expect(await complete('/set policy.')).toEqual(['policy.approvalTimeoutSeconds', 'policy.mode']);
  expect(await complete('/get policy.m')).toEqual(['policy.mode']);
  expect(await complete('/set policy.mode ')).toEqual(['read', 'write', 'yolo']);
  expect(await complete('/set policy.approvalTimeoutSeconds ')).toEqual(['1', '86400', 'none']);
  expect(await complete('/set sandbox.network.conversation ')).toEqual(['default', 'off', 'on']);
  expect(await complete('/set sandbox.network ')).toEqual(['off', 'on']);
  expect(await complete('/set thinking ')).toEqual(['high', 'low', 'medium', 'off']);
  expect(await complete('/set agent.instructions ')).toEqual(['clear']);
  expect(await complete('/get mo')).toEqual(['model']);
  expect(await complete('/g')).toEqual(['get']);
});

test('hostile input is refused with a sentence saying what to type, and nothing is stored', async () => {
  await run('/set policy.approvalTimeoutSeconds 60');
  const before = stored();
  const refused: [string, RegExp][] = [
    ['/set nonsense.key 3', /^\/set: There is no setting “nonsense\.key”: Tab completes the setting names, and \/get alone lists them/],
    ['/get policy.mood', /There is no setting “policy\.mood”/],
    ['/set policy.mode everything', /“everything” is not a value of policy\.mode: use read, write or yolo\./],
    ['/set policy.mode 3', /“3” is not a value of policy\.mode/],
    ['/set policy.approvalTimeoutSeconds 0', /“0” is out of range: policy\.approvalTimeoutSeconds takes a whole number of seconds from 1 to 86,400, or none\./],
    ['/set policy.approvalTimeoutSeconds 86401', /out of range/],
    ['/set policy.approvalTimeoutSeconds -5', /“-5” is not a number/],
    ['/set policy.approvalTimeoutSeconds 1.5', /“1\.5” is not a number/],
    ['/set policy.approvalTimeoutSeconds 99999999999999999999', /is not a number/],
    ['/set policy.approvalTimeoutSeconds soon', /“soon” is not a number/],
    ['/set sandbox.network maybe', /“maybe” is not a value of sandbox\.network: use on or off\./],
    ['/set sandbox.network.conversation {"on":true}', /is not a value of sandbox\.network\.conversation: use on, off or default\./],
    ['/set thinking extreme', /“extreme” is not a value of thinking: use off, low, medium or high\./],
    ['/set model two words', /is not a model: name one as provider\/model/],
    ['/get policy.mode extra words', /\/get takes one setting name; to change it, type \/set “policy\.mode” VALUE\./],
    ['/set workspace /', /\S/],
  ];
  for (const [input, expected] of refused) {
    const result = await run(input);
    expect(result.kind, input.slice(0, 60)).toBe('error');
    expect(result.text, input.slice(0, 60)).toMatch(expected);
    // A sentence, not an echo: a huge input never comes back whole.
    expect(result.text.length, input.slice(0, 60)).toBeLessThan(400);
  }
  const long = await runInside(`/set agent.instructions ${'x'.repeat(20_001)}`);
  expect(long).toEqual({ kind: 'error', text: '/set: agent.instructions holds at most 20,000 characters; this is 20,001. Shorten it and set it again.' });
  // The API refuses a command line that long before any command sees it.
  expect((await t.result('commands.run', { input: `/set agent.instructions ${'x'.repeat(20_001)}`, sessionId })).ok).toBe(false);
  const huge = await runInside(`/set ${'k'.repeat(100_000)} 1`);
  expect(huge.kind).toBe('error');
  expect(huge.text).toMatch(/^\/set: There is no setting “k{60}…”/);
  expect(huge.text.length).toBeLessThan(300);
  expect(stored()).toEqual(before);
  expect(app.policy.mode(sessionId)).toBe('write');
  expect(app.workspaces.of(sessionId)).toBeNull();
});

test('the older forms keep working beside the new names: /set policy <mode> and /set plugin on|off', async () => {
  expect((await run('/set policy yolo')).text).toMatch(/^Tool policy: yolo for this conversation\. Changes to protected paths/);
  expect((await run('/get policy.mode')).text).toBe('policy.mode is yolo.');
  expect(await run('/set plugin off example')).toEqual({ kind: 'ok', text: 'Example is off.' });
  expect((await run('/set')).text).toMatch(/^Name a setting and its value: \/set policy\.mode write/);
});
