// A plugin's hook in the window: a user plugin blocks a tool call, and the tool card shows its reason.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent/index.ts';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-hooks-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
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

/** A hand-written user plugin whose tool_call hook always throws; `advisory` says a failure may be skipped. */
const throwingHook = (advisory: boolean) => `export default {
  protocolVersion: 1,
  async initialize() { return true; },
  async shutdown() {},
  async capabilities() {
    return [{ kind: 'hook', point: 'tool_call', advisory: ${advisory}, run: () => { throw new Error('the guard is broken'); } }];
  },
};
`;

/** Installs and switches on the throwing user plugin. */
async function installBrokenGuard(a: Amber, advisory: boolean): Promise<void> {
  const folder = join(a.dataDir, 'plugins', 'broken_guard');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'index.js'), throwingHook(advisory));
  writeFileSync(
    join(folder, 'manifest.json'),
    JSON.stringify({
      id: 'broken_guard',
      version: '0.1.0',
      name: 'Broken guard',
      description: 'A hook that throws.',
      category: 'testing',
      protocolVersion: 1,
      entry: 'index.js',
    }),
  );
  await a.shell.app.plugins.rescan();
  await a.shell.app.plugins.setState('broken_guard', true, { confirm: true });
}

test('a tool_call hook that throws blocks the call (fails closed) and the card says which plugin failed and how', async () => {
  const target = join(workspace, 'a.txt');
  model.setScript([
    openAiStream({ text: 'Writing.', toolCalls: [{ id: 'call_0', name: 'write_file', arguments: { path: target, content: 'a' } }] }),
    openAiStream({ text: 'It was blocked.' }),
    openAiStream({ text: 'done' }),
  ]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  await installBrokenGuard(a, false);
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Write it.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'It was blocked.' }).waitFor();
  const card = a.page.getByTestId('tool-card').filter({ hasText: 'write_file' });
  await expect.poll(() => card.getAttribute('data-status')).toBe('denied');
  await card.filter({ hasText: "Blocked: the plugin 'broken_guard' failed in its tool_call hook (the guard is broken), so the call was not run." }).waitFor();
  expect(existsSync(target)).toBe(false);
});

test('an advisory hook that throws on every call of a run is skipped, the calls run, and the window says so once', async () => {
  const first = join(workspace, 'a.txt');
  const second = join(workspace, 'b.txt');
  model.setScript([
    openAiStream({
      text: 'Writing.',
      toolCalls: [
        { id: 'call_0', name: 'write_file', arguments: { path: first, content: 'a' } },
        { id: 'call_1', name: 'write_file', arguments: { path: second, content: 'b' } },
      ],
    }),
    openAiStream({ text: 'Both written.' }),
    openAiStream({ text: 'done' }),
  ]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  await installBrokenGuard(a, true);
  const errors: AgentEvent[] = [];
  const sub = a.shell.app.agent.onDidEmit((e) => {
    if (e.type === 'extension_error') errors.push(e);
  });
  await a.open();
  await a.page.getByTestId('new-chat').click();
  // Writes inside the workspace run without a question in write mode.
  await a.page.getByTestId('composer').fill('Write both.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Both written.' }).waitFor();
  sub.dispose();
  expect(errors).toHaveLength(2);
  const toasts = a.page.getByTestId('toast').filter({ hasText: "The plugin 'broken_guard' was skipped" });
  await toasts.first().waitFor();
  expect(await toasts.count()).toBe(1);
  await expect.poll(() => toasts.first().textContent()).toMatch(/the guard is broken/);
  expect(existsSync(first) && existsSync(second)).toBe(true);
});
