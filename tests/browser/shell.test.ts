// The bash tool in the window, run by the real workspace-tools plugin process under the real policy: a
// destructive command line asks with its class and reason; a long command streams into its card until Stop.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-shell-')));
  workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, 'build'), { recursive: true });
  model = await startModel();
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The headless shell with the loopback model and the bundled plugins' own tools (bash among them). */
async function openNewChat(): Promise<Amber> {
  const { tools: _writeFileOnly, ...core } = coreFor(model, workspace);
  const a = (amber = await startAmber({ core }));
  await new Promise<void>((resolve) => {
    const tools = a.shell.app.plugins.registries.tools;
    if (tools.get('bash')) return resolve();
    const sub = tools.onDidChange(() => {
      if (tools.get('bash')) {
        sub.dispose();
        resolve();
      }
    });
  });
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').waitFor();
  return a;
}

async function send(a: Amber, text: string): Promise<void> {
  await a.page.getByTestId('composer').fill(text);
  await a.page.keyboard.press('Enter');
}

test('a destructive command asks, showing the command line, its class and the reason', async () => {
  model.setScript([
    openAiStream({ text: 'Cleaning up.', toolCalls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf build' } }] }),
    openAiStream({ text: 'Left it alone.' }),
  ]);
  const a = await openNewChat();
  await send(a, 'Remove the build folder.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.getByTestId('approval-command').filter({ hasText: 'rm -rf build' }).waitFor();
  expect(await dialog.getByTestId('approval-command-class').textContent()).toBe('destructive');
  expect(await dialog.textContent()).toContain('rm -r deletes whole folders.');
  // It says where the line runs; "always" never covers a destructive line, and where it would be, the dialog says why.
  expect(await dialog.getByTestId('approval-working-folder').textContent()).toBe(`Runs in${workspace}`);
  expect(await dialog.getByRole('button', { name: /^Always for/ }).count()).toBe(0);
  expect(await dialog.getByTestId('approval-no-always').textContent()).toBe('A destructive line is asked about every time, so there is no “always” for it.');
  expect(await dialog.locator('button:disabled').count()).toBe(0);
  await a.screenshot('shell-approval-destructive');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Left it alone.' }).waitFor();
  expect(await a.page.locator('[data-testid=tool-card][data-tool=bash]').getAttribute('data-status')).toBe('denied');
  expect(existsSync(join(workspace, 'build'))).toBe(true);
});

test('inline interpreter code asks and says, where "Always" would be, why no always answer is kept', async () => {
  model.setScript([
    openAiStream({ text: 'Checking.', toolCalls: [{ id: 'call_py', name: 'bash', arguments: { command: "python3 -c 'print(1)'" } }] }),
    openAiStream({ text: 'Skipped it.' }),
  ]);
  const a = await openNewChat();
  await send(a, 'Print one with python.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.getByTestId('approval-command').filter({ hasText: 'python3 -c' }).waitFor();
  expect(await dialog.getByTestId('approval-command-class').textContent()).toBe('cannot be judged');
  expect(await dialog.getByTestId('approval-no-always').textContent()).toMatch(/interpreter runs whatever code it is given/);
  expect(await dialog.getByRole('button', { name: /^Always for/ }).count()).toBe(0);
  await a.screenshot('shell-approval-no-always');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Skipped it.' }).waitFor();
});

test('a long command streams into its card and Stop ends it', async () => {
  model.setScript([
    openAiStream({
      text: 'Running it.',
      toolCalls: [{ id: 'call_long', name: 'bash', arguments: { command: 'for i in $(seq 1 600); do echo tick$i; sleep 0.05; done' } }],
    }),
  ]);
  const a = await openNewChat();
  await send(a, 'Run the long job.');
  const card = a.page.locator('[data-testid=tool-card][data-tool=bash]');
  await card.filter({ hasText: 'tick20' }).waitFor();
  expect(await card.getAttribute('data-status')).toBe('running');
  // The running card folds to its newest lines.
  expect(await card.locator('.tool-output pre').textContent()).not.toContain('tick1\n');
  await a.screenshot('shell-card-streaming');
  await a.page.getByTestId('abort').click();
  await a.page.locator('[data-testid=tool-card][data-tool=bash][data-status=error]').waitFor();
  await a.page.getByTestId('send').waitFor({ state: 'attached' });
});

test('ordinary work runs in write mode without a question, and its card says it ran sandboxed (write)', async () => {
  model.setScript([
    openAiStream({
      text: 'Building.',
      toolCalls: [{ id: 'call_build', name: 'bash', arguments: { command: 'mkdir -p out && echo built > out/result.txt && cat out/result.txt' } }],
    }),
    openAiStream({ text: 'Built it.' }),
    openAiStream({ text: 'done' }),
  ]);
  const a = await openNewChat();
  await send(a, 'Build the project.');
  const card = a.page.locator('[data-testid=tool-card][data-tool=bash]');
  await card.locator('[data-testid=tool-sandbox]').waitFor();
  expect(await card.getByTestId('tool-sandbox').textContent()).toBe('sandboxed (write)');
  expect(await card.getAttribute('data-status')).toBe('ok');
  expect(await a.page.getByTestId('approval-dialog').count()).toBe(0);
  expect(existsSync(join(workspace, 'out', 'result.txt'))).toBe(true);
  await card.click();
  await a.screenshot('shell-card-sandboxed');
});
