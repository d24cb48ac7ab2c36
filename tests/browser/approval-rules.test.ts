// "Always" answers in the window become stored rules: one given on a shell question is still in Settings →
// Tool policy after a restart on the same data folder, with where it came from; one given while Settings
// is open appears there at once; each is removed with its own button.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ToolSource } from '../../src/main/agent/index.ts';
import { openAiStream, type ProviderServer, type RecordedRequest } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, MODEL, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-approval-rules-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

/** The app's own shell tool (judged on its line like the workspace tools' bash); it only says what it would run. */
const shellTools: ToolSource = {
  list: () => [
    {
      name: 'bash',
      description: 'Runs a command line.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      readOnly: false,
      shell: true,
    },
  ],
  execute: async (_name, args) => ({ content: [{ type: 'text', text: `ran ${String(args['command'])}` }], isError: false }),
};

/** The model: each request runs one line, says it is done after the line's result, and answers "done" to anything else. */
function script(request: RecordedRequest) {
  const last = (request.body as { messages: { role: string; content: unknown }[] }).messages.at(-1)!;
  const text = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
  const line = last.role === 'user' ? (text.startsWith('Frobnicate') ? 'frobnicate --fast' : text.startsWith('Quuxify') ? 'quuxify --all' : null) : null;
  if (line) return openAiStream({ text: 'Running.', toolCalls: [{ id: `call_${line.length}`, name: 'bash', arguments: { command: line } }] });
  if (last.role === 'tool') return openAiStream({ text: text.includes('quuxify') ? 'Second done.' : 'First done.' });
  return openAiStream({ text: 'done' });
}

test('"Always" on a shell question is a rule in Settings after a restart, a second one shows up live, and each is removed there', async () => {
  model.setScript(script);
  amber = await startAmber({ core: { ...coreFor(model, workspace), tools: shellTools, sandboxProbe: async () => ({ available: true, kind: 'bubblewrap' }) } });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Frobnicate the project.');
  await a.page.keyboard.press('Enter');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.getByTestId('approval-command').filter({ hasText: 'frobnicate --fast' }).waitFor();
  expect(await dialog.getByTestId('approval-scope').inputValue()).toBe('folder');
  await dialog.getByRole('button', { name: 'Always for “frobnicate”' }).click();
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'First done.' }).waitFor();
  const sessionId = a.shell.app.policy.rules()[0]!.source!.sessionId!;

  await a.restart();
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-policy').click();
  await a.page.getByTestId('settings-policy').scrollIntoViewIfNeeded();
  const rules = a.page.getByTestId('policy-rule');
  await expect.poll(() => rules.count()).toBe(1);
  const stored = rules.first();
  await stored.filter({ hasText: 'bash: lines starting “frobnicate” (including ones that cannot be judged)' }).waitFor();
  // An untitled conversation is named by its first words.
  expect(await stored.getByTestId('policy-rule-origin').textContent()).toMatch(
    new RegExp(`^In ${workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · from an answer in “Frobnicate the project\\.”, `),
  );

  // With Settings open, the next "always" (everywhere, this time) is listed as soon as it is given.
  const run = a.shell.app.agent.start(sessionId, 'Quuxify everything.', { model: MODEL });
  await dialog.getByTestId('approval-command').filter({ hasText: 'quuxify --all' }).waitFor();
  await dialog.getByTestId('approval-scope').selectOption('global');
  await dialog.getByRole('button', { name: 'Always for “quuxify”' }).click();
  expect((await run.done).reason).toBe('stop');
  await expect.poll(() => rules.count()).toBe(2);
  await rules
    .nth(1)
    .filter({ hasText: /^allowbash: lines starting “quuxify”.*Everywhere · from an answer in/ })
    .waitFor();
  await a.screenshot('settings-policy-rules');

  await stored.getByRole('button', { name: /^Remove the rule allow bash: lines starting “frobnicate”/ }).click();
  await expect.poll(() => rules.count()).toBe(1);
  expect(a.shell.app.policy.rules().map((r) => r.command)).toEqual(['quuxify']);

  // How long a question waits: off by default, set in seconds, cleared to wait again.
  const timeout = a.page.getByTestId('approval-timeout');
  expect(await timeout.inputValue()).toBe('');
  await timeout.fill('45');
  await timeout.press('Enter');
  await expect.poll(() => a.shell.app.policy.approvalTimeout()).toBe(45);
  await timeout.fill('');
  await timeout.press('Enter');
  await expect.poll(() => a.shell.app.policy.approvalTimeout()).toBeNull();
});
