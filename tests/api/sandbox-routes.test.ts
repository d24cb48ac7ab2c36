// The shell sandbox over the API: its state and the network switch, checked inputs on both channels, the
// owner's change announced as policy.changed, and "run unsandboxed" refused where a question did not offer it.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import type { SandboxStatus } from '../../src/main/policy/index.ts';
import type { SandboxView } from '../../src/shared/api/index.ts';
import { type AppUnderTest, openApp, type RecordedEvent } from '../fixtures/app-under-test.ts';

let t: AppUnderTest | undefined;
let app: App | undefined;
let dir: string | undefined;
let events: RecordedEvent[] = [];

afterEach(async () => {
  await t?.close();
  t = app = dir = undefined;
});

function start(status: SandboxStatus): AppUnderTest {
  t = openApp({ prefix: 'amber-sandbox-api-', app: (d) => ({ home: d, workspace: join(d, 'ws'), sandboxProbe: async () => status }) });
  ({ app, dir, events } = t);
  return t;
}

const ok = <T>(channel: string, input: unknown = {}) => t!.call<T>(channel, input);
const refused = async (channel: string, input: unknown) => (await t!.refused(channel, input)).code;

test('policy.sandbox says whether a sandbox starts, and policy.setNetwork turns write mode’s network on, announced', async () => {
  const { app: a } = start({ available: true, kind: 'bubblewrap' });
  const sessionId = a.sessions.create({ title: 's', cwd: join(dir!, 'ws') }).id;
  expect(await ok<SandboxView>('policy.sandbox')).toEqual({
    available: true,
    kind: 'bubblewrap',
    reason: null,
    fix: null,
    network: false,
    sessionId: null,
    sessionNetwork: null,
  });
  expect(await ok<SandboxView>('policy.setNetwork', { network: true, sessionId })).toMatchObject({ network: true, sessionId, sessionNetwork: null });
  expect(a.sandbox.network()).toBe(true);
  expect(events).toContainEqual({ event: 'policy.changed', payload: { sessionId: null } });

  events.length = 0;
  expect(await ok<{ result: { kind: string } }>('commands.run', { input: '/sandbox network off', sessionId })).toMatchObject({ result: { kind: 'ok' } });
  expect(events).toEqual([{ event: 'policy.changed', payload: { sessionId } }]);
  expect(await ok<SandboxView>('policy.sandbox', { sessionId })).toMatchObject({ network: true, sessionNetwork: false });
  expect(await ok<{ result: { text: string } }>('commands.run', { input: '/sandbox', sessionId })).toMatchObject({
    result: { text: expect.stringMatching(/^Write mode: .* without network \(this conversation’s choice/) },
  });
});

test('without a sandbox the view says why and how to fix it; a later failure is announced to every window', async () => {
  const { app: a } = start({ available: true, kind: 'bubblewrap' });
  await ok('policy.sandbox');
  a.policy.sandboxUnavailable('bwrap: creating new namespace failed');
  expect(events).toContainEqual({ event: 'policy.changed', payload: { sessionId: null } });
  expect(await ok<SandboxView>('policy.sandbox')).toMatchObject({
    available: false,
    kind: null,
    reason: expect.stringMatching(/could not start when a command ran: bwrap: creating new namespace failed/),
    fix: expect.any(String),
  });
});

test('hostile: both channels refuse what is not their input, and an unknown conversation is not found', async () => {
  start({ available: false, reason: 'Windows has no sandbox Amber can run shell commands in.', fix: 'Run Amber inside WSL.' });
  for (const input of [{ sessionId: 5 }, { sessionId: '' }, { sessionId: 'x'.repeat(129) }, { sessionId: null, extra: true }, [], 'policy']) {
    expect(await refused('policy.sandbox', input), JSON.stringify(input)).toBe('invalid_input');
  }
  for (const input of [{}, { network: 'yes' }, { network: 1 }, { network: true, evil: 1 }, { network: true, sessionId: { $gt: '' } }, null]) {
    expect(await refused('policy.setNetwork', input), JSON.stringify(input)).toBe('invalid_input');
  }
  expect(app!.sandbox.network()).toBe(false);
  expect(await refused('policy.sandbox', { sessionId: 'no-such-session' })).toBe('not_found');
  expect(await ok<SandboxView>('policy.sandbox')).toMatchObject({
    available: false,
    reason: 'Windows has no sandbox Amber can run shell commands in.',
    fix: 'Run Amber inside WSL.',
  });
});

test('hostile: "run unsandboxed" to a question that did not offer it is refused and the question stays open; an unknown answer is refused', async () => {
  const { app: a } = start({ available: true, kind: 'bubblewrap' });
  const sessionId = a.sessions.create({ title: 's', cwd: join(dir!, 'ws') }).id;
  const write = { name: 'write', description: 'writes', parameters: {}, readOnly: false, pathParams: ['path'] };
  const call = a.policy.authorize(
    { sessionId, workspaceRoot: join(dir!, 'ws'), tool: write, toolCallId: 'c1', args: { path: '/elsewhere/a.txt' } },
    new AbortController().signal,
  );
  await expect.poll(() => a.approvals.pending().length).toBe(1);
  const [question] = a.approvals.pending();
  expect(question).not.toHaveProperty('sandboxed');
  expect(await refused('approvals.answer', { questionId: question!.id, answer: 'unsandboxed' })).toBe('invalid_input');
  expect(await refused('approvals.answer', { questionId: question!.id, answer: 'always_unsandboxed' })).toBe('invalid_input');
  expect(a.approvals.pending()).toHaveLength(1);
  await ok('approvals.answer', { questionId: question!.id, answer: 'deny' });
  expect(await call).toMatchObject({ allowed: false });
});
