// A plugin's hook in the window: a user plugin blocks a tool call, and the tool card shows its reason.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { coreFor, startModel } from './loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-hooks-'));
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  model = await startModel();
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a plugin blocks a tool call and the user reads the plugin's reason in the tool card", async () => {
  const target = join(workspace, 'notes.txt');
  model.setScript([
    openAiStream({ text: 'Writing.', toolCalls: [{ id: 'call_0', name: 'write_file', arguments: { path: target, content: 'x' } }] }),
    openAiStream({ text: 'It was blocked.' }),
    openAiStream({ text: 'done' }),
  ]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  mkdirSync(join(a.dataDir, 'plugins'), { recursive: true });
  cpSync(join(import.meta.dirname, '../fixtures/user-plugins/write_guard'), join(a.dataDir, 'plugins', 'write_guard'), { recursive: true });
  await a.shell.app.plugins.rescan();
  await a.shell.app.plugins.setState('write_guard', true, { confirm: true });
  expect(a.shell.app.plugins.get('write_guard').state).toBe('active');
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Write the notes.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'It was blocked.' }).waitFor();
  const card = a.page.getByTestId('tool-card').filter({ hasText: 'write_file' });
  await expect.poll(() => card.getAttribute('data-status')).toBe('denied');
  await card.filter({ hasText: "Blocked by the plugin 'write_guard': Writing is paused while the release is cut." }).waitFor();
  await a.screenshot('hook-blocked-tool-call');
  expect(existsSync(target)).toBe(false);
});
