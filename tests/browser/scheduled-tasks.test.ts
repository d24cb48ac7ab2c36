// Scheduled tasks as a user meets them: Settings → Scheduled tasks, New task, the form filled in and saved; Run
// now makes a run whose row says Done with its duration; a toast says it finished; Open goes to its conversation,
// where the tool on the task's list ran without a question.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { readRequest } from '../subagents/subagent-rig.ts';
import { seriousViolations } from './axe-audit.ts';
import { type Amber, docsShot, SCREENSHOTS, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from './loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-schedule-'));
  model.setScript((raw) => {
    const request = readRequest(raw);
    if (request.confirm) return openAiStream({ text: 'done' });
    if (request.results.length === 0)
      return openAiStream({
        toolCalls: [{ id: 'call_notes', name: 'write_file', arguments: { path: join(workspace, 'notes', 'today.md'), content: '- shipped the release\n' } }],
      });
    return openAiStream({ text: 'Wrote notes/today.md with one item.' });
  });
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

test('a task made in Settings runs with Run now; its run is listed as done and opens as a conversation', async () => {
  amber = await startAmber({ core: coreFor(model, workspace), viewport: { width: 1180, height: 760 } });
  const { page, shell } = amber;
  await amber.open();
  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Scheduled tasks', exact: true }).click();
  const section = page.getByTestId('settings-schedule');
  await expect.poll(() => section.textContent()).toContain('No task is scheduled.');

  await section.getByTestId('schedule-new').click();
  const form = section.getByTestId('schedule-form');
  await form.getByLabel('Name', { exact: true }).fill('Morning notes');
  await form.getByLabel('Prompt', { exact: true }).fill('Write what shipped yesterday into notes/today.md.');
  await form.getByLabel('Folder', { exact: true }).fill(workspace);
  await form.getByLabel('How often').selectOption('weekly');
  await form.getByLabel('At (local time)').fill('08:30');
  expect(await form.locator('.schedule-rule').textContent()).toBe('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30');
  await form.getByLabel('Tools it may use without asking').fill('write_file');
  await form.screenshot({ path: join(SCREENSHOTS, 'scheduled-task-form.png'), animations: 'disabled' });
  await form.getByRole('button', { name: 'Schedule' }).click();

  const row = section.locator('[data-testid=schedule-task][data-task="Morning notes"]');
  await row.waitFor();
  expect(await row.textContent()).toContain('Mon, Tue, Wed, Thu, Fri at 08:30');
  expect(await row.textContent()).toContain('tools: write_file');
  expect(shell.app.scheduler.list()).toMatchObject([{ name: 'Morning notes', folder: workspace, tools: ['write_file'] }]);

  await row.getByRole('button', { name: 'Run now' }).click();
  const run = row.getByTestId('schedule-run').first();
  await expect.poll(() => run.getAttribute('data-state')).toBe('done');
  expect(await run.textContent()).toMatch(/Done.*\d+ s/);
  expect(readFileSync(join(workspace, 'notes', 'today.md'), 'utf8')).toBe('- shipped the release\n');
  await expect.poll(() => page.getByTestId('toast').filter({ hasText: '“Morning notes” finished' }).count()).toBe(1);
  expect(await seriousViolations(page, '[data-testid=settings-schedule]')).toEqual([]);
  const dismiss = page.getByTestId('toast').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  // The folder is the test's temp folder: masked in the picture.
  await section.screenshot({ path: docsShot('scheduled-tasks.png'), animations: 'disabled', mask: [section.locator('.schedule-place')], maskColor: '#d3cbbd' });

  await run.getByRole('button', { name: 'Open' }).click();
  await page.getByTestId('settings').waitFor({ state: 'detached' });
  await expect.poll(() => page.getByTestId('session-title').textContent()).toMatch(/^Morning notes — \d{4}-\d\d-\d\d \d\d:\d\d$/);
  await expect.poll(() => page.getByText('Wrote notes/today.md with one item.').count()).toBe(1);
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(existsSync(join(workspace, 'notes', 'today.md'))).toBe(true);
});

test('a task on a short schedule runs twice by itself and appears as two conversations in the sidebar', async () => {
  // The scheduler's clock and timer are the test's: each armed timer fires after 300 ms with the clock moved on
  // by its delay, twice; then time stands still.
  let now = Date.parse('2026-06-10T08:00:00Z');
  let fired = 0;
  const timer = (ms: number, fire: () => void) => {
    if (fired >= 2) return () => {};
    const t = setTimeout(() => {
      fired++;
      now += ms;
      fire();
    }, 300);
    return () => clearTimeout(t);
  };
  amber = await startAmber({ core: { ...coreFor(model, workspace), scheduler: { clock: () => now, timer } }, viewport: { width: 1180, height: 760 } });
  const { page, shell } = amber;
  await amber.open();
  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Scheduled tasks', exact: true }).click();
  const section = page.getByTestId('settings-schedule');
  await section.getByTestId('schedule-new').click();
  const form = section.getByTestId('schedule-form');
  await form.getByLabel('Name', { exact: true }).fill('Heartbeat');
  await form.getByLabel('Prompt', { exact: true }).fill('Write the notes.');
  await form.getByLabel('Folder', { exact: true }).fill(workspace);
  await form.getByLabel('How often').selectOption('minutes');
  await form.getByLabel('Every how many minutes').fill('5');
  await form.getByLabel('Tools it may use without asking').fill('write_file');
  await form.getByRole('button', { name: 'Schedule' }).click();

  const row = section.locator('[data-testid=schedule-task][data-task="Heartbeat"]');
  await expect.poll(() => row.locator('[data-testid=schedule-run][data-state=done]').count()).toBe(2);
  expect(await row.textContent()).toContain('every 5 minutes');
  await page.getByTestId('close-settings').click();
  const rows = page.getByTestId('session-row').filter({ hasText: 'Heartbeat —' });
  await expect.poll(() => rows.count()).toBe(2);
  const titles = (await rows.allTextContents()).join(' | ');
  expect(titles).toMatch(/Heartbeat — \d{4}-\d\d-\d\d \d\d:\d\d.*Heartbeat — \d{4}-\d\d-\d\d \d\d:\d\d/);
  const tagged = shell.app.sessions.list().filter((x) => shell.app.sessions.path(x.id)[0]?.type === 'custom');
  expect(tagged).toHaveLength(2);
  await page.screenshot({ path: join(SCREENSHOTS, 'scheduled-twice.png') });
});
