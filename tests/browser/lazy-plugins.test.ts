// A plugin that starts when first used, as a user sees it: ready in Settings without a process, its tools
// offered to the model, and running once the model has called one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessOptions } from '../../src/main/headless/headless-shell.ts';
import { openAiStream } from '../fixtures/wire/wire-fixtures.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, type ModelRig, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let rig: ModelRig;

beforeEach(async () => {
  rig = await openModelRig('amber-lazy-plugins-');
});

afterEach(async () => {
  await closeModelRig(rig, amber);
  amber = null;
});

/** The loopback model with the plugins' own tools (the workspace tools among them). */
function pluginToolsCore(): NonNullable<HeadlessOptions['core']> {
  const core = { ...coreFor(rig.model, rig.workspace) };
  delete core.tools;
  return core;
}

test('the workspace tools are ready without a process until the model calls one, then Active', async () => {
  writeFileSync(join(rig.workspace, 'notes.txt'), 'lazy notes\n');
  rig.model.setScript([
    openAiStream({ text: 'Reading.', toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'notes.txt' } }] }),
    openAiStream({ text: 'It says lazy notes.' }),
    // The silent confirm turn after a run that used a tool.
    openAiStream({ text: 'done' }),
  ]);
  const a = (amber = await startAmber({ core: pluginToolsCore() }));
  await a.open();
  expect(a.shell.app.plugins.get('workspace_tools')).toMatchObject({ state: 'idle', pid: null });

  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  const row = a.page.locator('[data-testid=plugin-row][data-id=workspace_tools][data-state=idle]');
  await row.waitFor();
  // Said as what the user can use; that the process waits for the first use is under Details.
  expect(await row.getByTestId('plugin-state').textContent()).toBe('Tools available');
  await row.getByTestId('plugin-process-details').locator('summary').click();
  await row.getByTestId('plugin-process-details').getByText('Not started yet').waitFor();
  await row.getByTestId('plugin-contributions').locator('[title="tool read"]').waitFor();
  await row.scrollIntoViewIfNeeded();
  await a.screenshot('settings-lazy-plugin');
  await a.page.getByTestId('close-settings').click();

  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('What do my notes say?');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'It says lazy notes.' }).waitFor();
  await a.page.locator('[data-testid=tool-card][data-status=ok]').waitFor();
  const offered = ((rig.model.requests[0]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
  expect(offered).toContain('read');
  expect(JSON.stringify(rig.model.requests[1]!.body)).toContain('lazy notes');

  const running = a.shell.app.plugins.get('workspace_tools');
  expect(running.state).toBe('active');
  expect(running.pid).toBeGreaterThan(0);
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  await a.page
    .locator('[data-testid=plugin-row][data-id=workspace_tools][data-state=active]')
    .getByTestId('plugin-state')
    .filter({ hasText: 'Tools available' })
    .waitFor();
});
