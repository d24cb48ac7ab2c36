// The shell sandbox in the window: a shell question offers "Run unsandboxed" beside Deny (never the default),
// Settings shows what the sandbox allows per mode with the network switch of write mode, and where no sandbox
// can start the window is told once, the questions say so and Settings says how to fix it.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { SandboxStatus } from '../../src/main/policy/index.ts';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-sandbox-')));
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

const MISSING: SandboxStatus = {
  available: false,
  reason: 'bubblewrap (bwrap) is not installed, so shell commands cannot run in a sandbox.',
  fix: 'Install bubblewrap, then restart Amber.',
};

/** The headless shell with the loopback model and the bundled plugins' own tools (bash among them). */
async function openNewChat(sandboxProbe?: () => Promise<SandboxStatus>): Promise<Amber> {
  const { tools: _writeFileOnly, ...core } = coreFor(model, workspace);
  const a = (amber = await startAmber({ core: { ...core, ...(sandboxProbe ? { sandboxProbe } : {}) } }));
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

const focusedLabel = (a: Amber) => a.page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);

test('a shell question offers Run unsandboxed beside Deny, never by Enter; chosen, that one command runs outside the sandbox', async () => {
  model.setScript([
    openAiStream({ text: 'Cleaning up.', toolCalls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf build' } }] }),
    openAiStream({ text: 'Removed it.' }),
  ]);
  const a = await openNewChat();
  await send(a, 'Remove the build folder.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.getByTestId('approval-command').filter({ hasText: 'rm -rf build' }).waitFor();
  const unsandboxed = dialog.getByRole('button', { name: 'Run unsandboxed' });
  await unsandboxed.waitFor();
  expect(await dialog.getByTestId('approval-sandbox-note').textContent()).toContain('runs this one command outside it, with your full rights');
  await expect.poll(() => focusedLabel(a)).toBe('Deny');
  // Enter on Run unsandboxed does not answer: the question stays.
  await unsandboxed.focus();
  await a.page.keyboard.press('Enter');
  expect(await dialog.isVisible()).toBe(true);
  await a.screenshot('sandbox-approval-run-unsandboxed');
  await unsandboxed.click();
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Removed it.' }).waitFor();
  expect(await a.page.locator('[data-testid=tool-card][data-tool=bash]').getAttribute('data-status')).toBe('ok');
  const stored = a.shell.app.sessions
    .path(a.shell.app.sessions.list()[0]!.id)
    .flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [e.message] : []));
  expect(stored[0]?.['details']).toMatchObject({ sandbox: 'unsandboxed' });
  expect(existsSync(join(workspace, 'build'))).toBe(false);
});

test('Settings shows what the sandbox allows in each mode and switches the network of write mode', async () => {
  const a = await openNewChat();
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-advanced').click();
  const section = a.page.getByTestId('settings-sandbox');
  await section.getByTestId('sandbox-status').filter({ hasText: 'bubblewrap' }).waitFor();
  expect(await section.getByTestId('sandbox-mode-read').textContent()).toContain('Files read-only, secrets and Amber’s data folder hidden, no network.');
  expect(await section.getByTestId('sandbox-mode-write').textContent()).toContain('network off');
  const toggle = section.getByTestId('sandbox-network');
  expect(await toggle.getAttribute('aria-checked')).toBe('false');
  await toggle.click();
  await section.getByTestId('sandbox-mode-write').filter({ hasText: 'network on' }).waitFor();
  expect(a.shell.app.sandbox.network()).toBe(true);
  await section.scrollIntoViewIfNeeded();
  await a.screenshot('sandbox-settings');

  // A conversation's own choice, made with the command, shows there too and wins over the switch.
  const sessionId = a.shell.app.sessions.list()[0]!.id;
  expect(await a.shell.app.commands.tree.run('/sandbox network off', { sessionId })).toMatchObject({ kind: 'ok' });
  await section.getByTestId('sandbox-mode-write').filter({ hasText: 'network off for this conversation' }).waitFor();
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
});

test('without a sandbox the window is told once with the fix, the question says so and offers no Run unsandboxed', async () => {
  model.setScript([
    openAiStream({ text: 'Making it.', toolCalls: [{ id: 'call_touch', name: 'bash', arguments: { command: 'touch made.txt' } }] }),
    openAiStream({ text: 'Made it.' }),
  ]);
  const a = await openNewChat(async () => MISSING);
  const notice = a.page.getByTestId('toast').filter({ hasText: 'Shell commands run without a sandbox' });
  await notice.waitFor();
  expect(await notice.textContent()).toContain('Install bubblewrap, then restart Amber.');
  await send(a, 'Make the file.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.getByTestId('approval-command').filter({ hasText: 'touch made.txt' }).waitFor();
  expect(await dialog.textContent()).toContain('No sandbox can start here, so if you allow it, it runs with your full rights.');
  await dialog.getByTestId('approval-no-sandbox').waitFor();
  expect(await dialog.getByRole('button', { name: 'Run unsandboxed' }).count()).toBe(0);
  // No "always" here: the note above says so, and no button stands disabled without a word.
  expect(await dialog.getByRole('button', { name: /^Always for/ }).count()).toBe(0);
  expect(await dialog.locator('button:disabled').count()).toBe(0);
  await a.screenshot('sandbox-approval-no-sandbox');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Made it.' }).waitFor();
  expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
  expect(await notice.count()).toBe(1);

  await notice.getByRole('button', { name: 'Settings' }).click();
  const status = a.page.getByTestId('settings-sandbox').getByTestId('sandbox-status');
  await status.waitFor();
  expect(await status.textContent()).toContain('No sandbox: bubblewrap (bwrap) is not installed');
  // What a sandbox would allow is not claimed where none runs.
  expect(await a.page.getByTestId('sandbox-mode-write').count()).toBe(0);
  await a.page.getByTestId('settings-sandbox').scrollIntoViewIfNeeded();
  await a.screenshot('sandbox-settings-unavailable');
});
