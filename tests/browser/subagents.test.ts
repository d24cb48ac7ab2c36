// A parallel task run as the user sees it: the task card's rows update live (one child done, one still
// running), Stop on a row stops that child alone, and a child's transcript opens read-only.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ProviderServer } from '../fixtures/provider-server.ts';
import { call, readRequest, say, task } from '../subagents/subagent-rig.ts';
import { type Amber, SCREENSHOTS, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;
// docs/images/subagents-*.png are written only when asked (AMBER_DOCS_SCREENSHOT=1), so a test run leaves the docs alone.
const shot = (name: string) => join(process.env.AMBER_DOCS_SCREENSHOT ? join(import.meta.dirname, '../../docs/images') : SCREENSHOTS, name);
const FIND = 'Find every place in src/ that parses a date string; give the file, line and function.';

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-subagents-ui-'));
});
afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

test('a parallel run shows one live row per child, Stop on a row stops that child, and a child transcript opens read-only', async () => {
  model.setScript((raw) => {
    const r = readRequest(raw);
    if (r.confirm) return say('done');
    if (!r.child) {
      return r.turns === 0
        ? task([
            { description: 'Find date parsing', prompt: FIND },
            { description: 'List date libraries', prompt: 'Which date libraries does package.json depend on, and which are imported?' },
            { description: 'Check time zones', prompt: 'Check each date parser for time zone handling.' },
          ])
        : say('Two of the three children reported; the third was stopped.');
    }
    if (r.prompt === FIND) {
      return r.turns === 0
        ? call('search', { pattern: 'parseDate|Date.parse' })
        : say('Dates are parsed in src/dates.ts (parseDate, line 12) and src/api/query.ts (the since= filter, line 40).', { input: 1800, output: 60 });
    }
    if (r.prompt.startsWith('Which')) return say('Only date-fns 3 is used; nothing imports moment.', { input: 900, output: 20 });
    // The third child's model never finishes its reply: it runs until stopped.
    return { ...say('Looking at the time zones…'), stallAfter: 2 };
  });
  const core = coreFor(model, workspace);
  const writeFile = core.tools!;
  core.tools = {
    list: async () => [
      ...(await writeFile.list()),
      { name: 'search', description: 'Searches the workspace.', parameters: { type: 'object', properties: { pattern: { type: 'string' } } }, readOnly: true },
    ],
    execute: async (name, args, execution) =>
      name === 'search'
        ? {
            content: [
              { type: 'text', text: 'src/dates.ts:12: export function parseDate(text: string)\nsrc/api/query.ts:40: const since = Date.parse(q.since)' },
            ],
            isError: false,
          }
        : writeFile.execute(name, args, execution),
  };
  amber = await startAmber({ core, seed: (shell) => shell.app.settings.set('agent.subagents', true) });
  const page = amber.page;
  await amber.open();
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Find every place that parses dates and check each for time zones.');
  await page.keyboard.press('Enter');

  const card = page.locator('[data-testid=tool-card][data-tool=task]');
  const rows = card.getByTestId('subagent-row');
  await expect.poll(() => rows.count()).toBe(3);
  await card.locator('[data-testid=subagent-row][data-state=done]').nth(1).waitFor();
  await card.locator('[data-testid=subagent-row][data-state=running]').waitFor();
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(['done', 'done', 'running']);
  expect(await rows.nth(0).textContent()).toMatch(/Find date parsing.*2 turns.*1 tool/);
  await card.screenshot({ path: shot('subagents-card.png'), animations: 'disabled' });

  // Stop on the running row: that child stops, the run goes on to the parent's answer.
  await rows.nth(2).getByRole('button', { name: 'Stop Check time zones' }).click();
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'the third was stopped' }).waitFor();
  await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(['done', 'done', 'stopped']);

  // Rows read from the result once the call has ended; a child's transcript opens read-only.
  await rows.nth(0).getByTestId('subagent-open').click();
  const transcript = page.getByTestId('subagent-transcript');
  await transcript.getByText('Dates are parsed in src/dates.ts', { exact: false }).waitFor();
  expect(await transcript.getByTestId('subagent-entry').count()).toBe(4);
  expect(await transcript.locator('textarea, [contenteditable=true]').count()).toBe(0);
  await transcript.screenshot({ path: shot('subagents-transcript.png'), animations: 'disabled' });
  await page.keyboard.press('Escape');
  await transcript.waitFor({ state: 'detached' });

  // The children's conversations are not in the sidebar.
  expect(await page.getByTestId('session-row').count()).toBe(1);
});

test('Settings switches child agents on and sets their limits (Conversations and tools)', async () => {
  amber = await startAmber({ core: coreFor(model, workspace) });
  await amber.open();
  const { page, shell } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Conversations and tools', exact: true }).click();
  const toggle = page.getByTestId('subagents-enabled');
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
  expect(shell.app.settings.get('agent.subagents')).toBe(true);
  const atOnce = page.getByTestId('subagents-maxParallel');
  expect(await atOnce.inputValue()).toBe('4');
  await atOnce.fill('2');
  await atOnce.blur();
  await expect.poll(() => shell.app.settings.get('agent.subagents.maxParallel')).toBe(2);
  // A value out of range is not saved; the field shows the stored one again.
  await atOnce.fill('99');
  await atOnce.blur();
  await expect.poll(() => atOnce.inputValue()).toBe('2');
  const tokens = page.getByTestId('subagents-budgetTokens');
  await tokens.fill('');
  await tokens.blur();
  await expect.poll(() => shell.app.settings.get('agent.subagents.budgetTokens')).toBe(0);
  await page.getByTestId('settings-subagents').screenshot({ path: shot('subagents-settings.png'), animations: 'disabled' });
});

test("a child agent's approval question opens in the same window, naming the child, and its row says it waits", async () => {
  const outside = join(dir, 'elsewhere', 'notes.md');
  model.setScript((raw) => {
    const r = readRequest(raw);
    if (r.confirm) return say('done');
    if (!r.child) return r.turns === 0 ? task([{ description: 'Save the notes', prompt: 'save' }]) : say('The child could not save the notes.');
    return r.turns === 0 ? call('write_file', { path: outside, content: '# Notes\n' }) : say('Not allowed to write there.');
  });
  amber = await startAmber({ core: coreFor(model, workspace), seed: (shell) => shell.app.settings.set('agent.subagents', true) });
  const page = amber.page;
  await amber.open();
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Save my notes next to the project.');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'notes.md' }).waitFor();
  expect(await dialog.getByTestId('approval-label').textContent()).toBe('Asked by the child agent “Save the notes”');
  // The child's row in the task card says it waits for the answer.
  await page.locator('[data-testid=tool-card][data-tool=task]').getByTestId('subagent-asking').waitFor();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'could not save the notes' }).waitFor();
  expect(existsSync(outside)).toBe(false);
});
