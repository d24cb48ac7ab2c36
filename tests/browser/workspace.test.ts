// The conversation's workspace folder in the window: named in the header, changed there (a path field in
// the headless shell) or with /workspace, refused with main's reason, and asked for when a tool call
// needs one and the conversation has none.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  dir = mkdtempSync(join(tmpdir(), 'amber-workspace-'));
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  mkdirSync(join(dir, 'chosen'));
  mkdirSync(join(dir, 'other'));
  model = await startModel();
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a tool call in a conversation without a folder asks for one; a refused folder says why; the chosen one is used', async () => {
  const note = join(dir, 'chosen', 'note.txt');
  model.setScript([
    openAiStream({ text: 'Writing it.', toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: note, content: 'hello' } }] }),
    openAiStream({ text: 'The note is written.' }),
  ]);
  amber = await startAmber({
    core: coreFor(model, workspace),
    seed: (shell) => void shell.app.sessions.create({ title: 'No folder yet', cwd: null }),
  });
  const a = amber;
  await a.open();
  await a.page.getByTestId('session-row').filter({ hasText: 'No folder yet' }).click();
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('Choose folder');
  await a.page.getByTestId('composer').fill('Write a note.');
  await a.page.keyboard.press('Enter');

  const dialog = a.page.getByTestId('workspace-dialog');
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('Choose a folder for this conversation');
  // Amber's data folder is refused with main's reason, and nothing runs meanwhile.
  await a.page.getByTestId('workspace-path').fill(a.dataDir);
  await a.page.getByTestId('workspace-choose').click();
  await expect.poll(() => a.page.getByTestId('workspace-error').textContent()).toMatch(/data folder/);
  expect(existsSync(note)).toBe(false);
  await a.screenshot('workspace-refused');

  // Typing completes existing folders.
  await a.page.getByTestId('workspace-path').fill(join(dir, 'cho'));
  await dialog.getByRole('button', { name: join(dir, 'chosen'), exact: true }).click();
  expect(await a.page.getByTestId('workspace-path').inputValue()).toBe(`${join(dir, 'chosen')}/`);
  await a.page.getByTestId('workspace-choose').click();
  await dialog.waitFor({ state: 'detached' });

  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'The note is written.' }).waitFor();
  expect(readFileSync(note, 'utf8')).toBe('hello');
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('chosen');
  expect(a.shell.app.sessions.list().find((s) => s.title === 'No folder yet')?.cwd).toBe(join(dir, 'chosen'));
});

test('declining the folder question denies the tool call with a sentence the model reads', async () => {
  model.setScript([
    openAiStream({ text: 'Writing it.', toolCalls: [{ id: 'call_w', name: 'write_file', arguments: { path: join(dir, 'x.txt'), content: 'x' } }] }),
    openAiStream({ text: 'I could not write it.' }),
  ]);
  amber = await startAmber({ core: coreFor(model, workspace), seed: (shell) => void shell.app.sessions.create({ title: 'Declined', cwd: null }) });
  const a = amber;
  await a.open();
  await a.page.getByTestId('session-row').filter({ hasText: 'Declined' }).click();
  await a.page.getByTestId('composer').fill('Write x.');
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('workspace-dialog').waitFor();
  await a.page.keyboard.press('Escape');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'I could not write it.' }).waitFor();
  expect(existsSync(join(dir, 'x.txt'))).toBe(false);
  const toolResult = (model.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === 'tool');
  expect(String(toolResult?.content)).toMatch(/no workspace folder/);
});

test('the header names the folder of a new conversation; it changes from the header and with /workspace', async () => {
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('workspace');
  expect(await a.page.getByTestId('workspace-button').getAttribute('title')).toContain(workspace);
  await a.screenshot('workspace-header');

  await a.page.getByTestId('workspace-button').click();
  await a.page.getByTestId('workspace-path').fill('/');
  await a.page.keyboard.press('Enter');
  await expect.poll(() => a.page.getByTestId('workspace-error').textContent()).toMatch(/whole disk/);
  await a.page.getByTestId('workspace-path').fill(join(dir, 'chosen'));
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('workspace-dialog').waitFor({ state: 'detached' });
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('chosen');

  await a.page.getByTestId('composer').fill(`/workspace ${join(dir, 'other')}`);
  await a.page.keyboard.press('Enter');
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('other');
  // The next new conversation starts in the folder used last.
  await a.page.getByTestId('new-chat').click();
  await expect.poll(() => a.page.getByTestId('workspace-button').getAttribute('title')).toContain(join(dir, 'other'));
});

test('the folder dialog keeps the focus inside while it is open, and Escape gives it back to the header button', async () => {
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('workspace');
  await a.page.getByTestId('workspace-button').click();
  await a.page.getByTestId('workspace-dialog').waitFor();
  const focusInside = () => a.page.evaluate(() => document.querySelector('[data-testid=workspace-dialog]')?.contains(document.activeElement) ?? false);
  expect(await a.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('workspace-path');
  // More presses than the dialog has controls, each way: every one lands inside.
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 12; i++) {
      await a.page.keyboard.press(key);
      expect(await focusInside(), `${key} #${i + 1}`).toBe(true);
    }
  }
  await a.page.keyboard.press('Escape');
  await a.page.getByTestId('workspace-dialog').waitFor({ state: 'detached' });
  expect(await a.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('workspace-button');
});

test('a folder that does not exist is created once the user says so, and the folders chosen last are offered', async () => {
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('workspace');
  await a.page.getByTestId('workspace-button').click();
  const target = join(dir, 'brand-new', 'app');
  await a.page.getByTestId('workspace-path').fill(target);
  await a.page.keyboard.press('Enter');
  // Asked first: nothing is made until the user says so.
  await expect.poll(() => a.page.getByTestId('workspace-error').textContent()).toBe('This folder does not exist yet.');
  expect(existsSync(target)).toBe(false);
  await a.screenshot('workspace-create');
  await a.page.getByTestId('workspace-create-folder').click();
  await a.page.getByTestId('workspace-dialog').waitFor({ state: 'detached' });
  expect(existsSync(target)).toBe(true);
  await expect.poll(() => a.page.getByTestId('workspace-button').textContent()).toContain('app');

  // Another folder, then the dialog again: the one chosen before is offered under Recent folders.
  await a.page.getByTestId('workspace-button').click();
  await a.page.getByTestId('workspace-path').fill(join(dir, 'chosen'));
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('workspace-dialog').waitFor({ state: 'detached' });
  await a.page.getByTestId('workspace-button').click();
  const recent = a.page.getByTestId('workspace-recent');
  await expect.poll(() => recent.getByRole('button').allTextContents()).toEqual([expect.stringContaining(target)]);
  await recent.getByRole('button').first().click();
  expect(await a.page.getByTestId('workspace-path').inputValue()).toBe(target);
});
