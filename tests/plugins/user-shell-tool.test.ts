// A user plugin's tool that declares `shell: true` is not judged as a shell (its line is not classified, no
// sandbox of Amber's holds its process): it is a write tool with no declared paths, so it asks in write mode
// even for a read-only line, and is denied in read mode. A real user plugin process, the real policy.
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import type { ApprovalAnswer, ApprovalQuestion } from '../../src/shared/agent/index.ts';
import { calls, ScriptedProvider, text } from '../agent/scripted-provider.ts';
import type { AppUnderTest } from '../fixtures/app-under-test.ts';
import { openScriptedApp } from '../fixtures/open-scripted-app.ts';

const USER_PLUGIN = resolve(import.meta.dirname, '../fixtures/user-plugins/shell_user');

let fixture: AppUnderTest;
let dir: string;
let app: App;
let provider: ScriptedProvider;
const asked: ApprovalQuestion[] = [];
let answer: ApprovalAnswer = 'deny';

beforeEach(async () => {
  provider = new ScriptedProvider();
  fixture = openScriptedApp(provider, {
    prefix: 'amber-user-shell-',
    before: (d) => {
      mkdirSync(join(d, 'data', 'plugins'), { recursive: true });
      cpSync(USER_PLUGIN, join(d, 'data', 'plugins', 'shell_user'), { recursive: true });
    },
  });
  ({ dir, app } = fixture);
  asked.length = 0;
  app.approvals.onDidChange((change) => {
    if (change.kind !== 'requested') return;
    asked.push(change.question);
    app.approvals.answer(change.question.id, answer);
  });
  await app.plugins.rescan();
  if (!app.plugins.get('shell_user').enabled) await app.plugins.setState('shell_user', true, { confirm: true });
});

afterEach(() => fixture.close());

async function runLine(sessionId: string, command: string): Promise<{ status: string; text: string }> {
  provider.push(calls({ name: 'user_shell', args: { command } }), text('done'));
  await app.agent.prompt(sessionId, 'run it');
  const results = app.sessions.path(sessionId).flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [e.message] : []));
  const last = results.at(-1)!;
  return { status: String(last.status), text: JSON.stringify(last.content) };
}

test("in write mode a user plugin's shell: true tool asks, even for a read-only line, and runs only once approved", async () => {
  expect(app.plugins.get('shell_user')).toMatchObject({ source: 'user', state: 'active' });
  expect(app.plugins.registries.tools.get('user_shell')?.value.spec).toMatchObject({ shell: true });
  const session = app.sessions.create({ title: 'user shell', cwd: join(dir, 'ws') });
  expect(app.policy.mode(session.id)).toBe('write');

  answer = 'deny';
  expect(await runLine(session.id, 'ls')).toMatchObject({ status: 'denied' });
  expect(asked).toHaveLength(1);
  // Asked as a write tool: no command class, and the reason says the policy cannot tell what it changes.
  expect(asked[0]).toMatchObject({ toolName: 'user_shell', folder: null, reason: expect.stringMatching(/declares no path parameters/) });
  expect(asked[0]).not.toHaveProperty('command');

  answer = 'once';
  expect(await runLine(session.id, 'ls')).toMatchObject({ status: 'ok', text: expect.stringContaining('ran: ls') });
  expect(asked).toHaveLength(2);
});

test("in read mode a user plugin's shell: true tool is denied without a question, even for a read-only line", async () => {
  const session = app.sessions.create({ title: 'user shell read', cwd: join(dir, 'ws') });
  app.policy.setMode(session.id, 'read');
  const out = await runLine(session.id, 'ls');
  expect(out.status).toBe('denied');
  expect(out.text).toMatch(/read mode/);
  expect(out.text).not.toContain('ran: ls');
  expect(asked).toEqual([]);
});
