// Scheduled tasks as a user meets them: Settings → Scheduled tasks, New task, the form filled in and saved; Run
// now makes a run whose row says Done with its duration; a toast says it finished; Open goes to its conversation,
// where the tool on the task's list ran without a question. A task is edited in place, its tools picked from the
// list the agent can be offered; runs missed while Amber was closed are told once, in a toast.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { readRequest } from '../subagents/subagent-rig.ts';
import { seriousViolations } from './axe-audit.ts';
import { type Amber, docsShot, SCREENSHOTS, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

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
  await form.getByRole('checkbox', { name: 'write_file' }).check();
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
  // by its delay, twice; then time stands still. As after five real minutes, the run before has ended when a timer
  // fires (on a loaded machine a run can take longer than 300 ms, and the scheduler rightly counts a run that
  // finds the one before still going as missed).
  let now = Date.parse('2026-06-10T08:00:00Z');
  let fired = 0;
  const timer = (ms: number, fire: () => void) => {
    if (fired >= 2) return () => {};
    let t: ReturnType<typeof setTimeout>;
    const tick = () => {
      if (amber?.shell.app.scheduler.list().some((task) => task.running)) {
        t = setTimeout(tick, 100);
        return;
      }
      fired++;
      now += ms;
      fire();
    };
    t = setTimeout(tick, 300);
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
  await form.getByRole('checkbox', { name: 'write_file' }).check();
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

/** Settings → Scheduled tasks, opened from the window's gear. */
async function openScheduledTasks(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Scheduled tasks', exact: true }).click();
  return page.getByTestId('settings-schedule');
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.keyboard.press('Control+Shift+L');
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
}

test('a paused task is edited in place: tools picked from the list (an off plugin’s refused with why), schedule and model changed, still paused', async () => {
  amber = await startAmber({
    core: coreFor(model, workspace),
    viewport: { width: 1180, height: 1000 },
    seed: async ({ api, app }) => {
      await api.call('providers.save', {
        providerId: 'custom',
        baseUrl: `${model.url}/v1`,
        model: 'loop-small',
        models: ['loop-small', 'loop-big'],
        name: 'Lab box',
      });
      const task = await app.scheduler.add({
        name: 'Morning notes',
        prompt: 'Write the notes.',
        folder: workspace,
        schedule: 'FREQ=DAILY;BYHOUR=9',
        tools: ['write_file'],
      });
      app.scheduler.setPaused(task.id, true);
      // The workspace tools' plugin is off: its tools are listed, marked off, and cannot be saved on a task.
      await app.plugins.setState('workspace_tools', false);
    },
  });
  const { page, shell } = amber;
  await amber.open();
  // No conversation is open (there is none): the model field lists the accounts' models all the same.
  expect(await page.getByTestId('session-row').count()).toBe(0);
  const section = await openScheduledTasks(page);
  const row = section.locator('[data-testid=schedule-task][data-task="Morning notes"]');
  await row.getByRole('button', { name: 'Edit Morning notes' }).click();
  const form = section.getByRole('form', { name: 'Edit Morning notes' });
  expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Morning notes');
  expect(await form.getByLabel('At (local time)').inputValue()).toBe('09:00');
  expect(await form.getByRole('checkbox', { name: 'write_file' }).isChecked()).toBe(true);

  await form.getByLabel('Prompt', { exact: true }).fill('Write the notes, then list what is left.');
  await form.getByLabel('How often').selectOption('hours');
  await form.getByLabel('Every how many hours').fill('2');
  // The model field lists the accounts' models as the model picker does, grouped by account.
  await expect.poll(() => form.getByLabel('Model').locator('optgroup[label="Lab box"] option').allTextContents()).toEqual(['loop-small', 'loop-big']);
  await form.getByLabel('Model').selectOption({ label: 'loop-big' });

  // bash comes from the plugin that is off: picked, the form says why it cannot be saved.
  const bash = form.locator('[data-testid=tool-choice][data-tool=bash]');
  const group = form.locator('[data-testid=tool-group][data-plugin=workspace_tools]');
  expect(await group.locator('.tool-group-name').textContent()).toBe('Workspace tools · off: Workspace tools is off: turn it on in Settings → Plugins.');
  expect(await bash.textContent()).toBe('bashruns commands · off');
  await bash.getByRole('checkbox', { name: 'bash' }).check();
  await form.getByLabel('Command prefixes bash may run').fill('npm test');
  await expect
    .poll(() => form.locator('.field-notice').textContent())
    .toBe('bash cannot run now: Workspace tools is off: turn it on in Settings → Plugins. Turn it on, or clear bash.');
  expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  // Masked: the test's temp folder.
  const mask = [form.getByLabel('Folder', { exact: true })];
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    expect(await seriousViolations(page, '[data-testid=settings-schedule]')).toEqual([]);
    await form.screenshot({ path: join(SCREENSHOTS, `scheduled-task-edit-${theme}.png`), animations: 'disabled', mask, maskColor: '#d3cbbd' });
  }
  await setTheme(page, 'light');
  await form.screenshot({ path: docsShot('scheduled-task-edit.png'), animations: 'disabled', mask, maskColor: '#d3cbbd' });

  // The list is reached from the keyboard: Space clears bash, and the form can be saved.
  await bash.getByRole('checkbox', { name: 'bash' }).focus();
  await page.keyboard.press('Space');
  expect(await bash.getByRole('checkbox', { name: 'bash' }).isChecked()).toBe(false);
  await expect.poll(() => form.locator('.field-notice').count()).toBe(0);
  await form.getByRole('button', { name: 'Save' }).click();

  await expect.poll(() => row.textContent()).toContain('every 2 hours · paused');
  const saved = shell.app.scheduler.list();
  expect(saved).toMatchObject([
    {
      name: 'Morning notes',
      prompt: 'Write the notes, then list what is left.',
      schedule: 'FREQ=HOURLY;INTERVAL=2',
      tools: ['write_file'],
      paused: true,
      nextRunAt: null,
    },
  ]);
  expect(saved[0]!.model).toMatch(/\/loop-big$/);
});

test('runs missed while Amber was closed are told once, in a toast that shows the tasks; a reload does not tell them again', async () => {
  let now = Date.parse('2026-06-10T08:00:00Z');
  const core = { ...coreFor(model, workspace), scheduler: { clock: () => now, timer: () => () => {} } };
  amber = await startAmber({
    core,
    viewport: { width: 1180, height: 760 },
    seed: async ({ app }) => {
      await app.scheduler.add({
        name: 'Heartbeat',
        prompt: 'Write the notes.',
        folder: workspace,
        schedule: 'FREQ=MINUTELY;INTERVAL=30',
        tools: ['write_file'],
      });
    },
  });
  const { page } = amber;
  await amber.open();
  const missed = page.getByTestId('toast').filter({ hasText: 'Scheduled runs missed while Amber was closed' });

  // Closed for 100 minutes: the runs due at +30, +60 and +90 minutes were missed.
  now += 100 * 60_000;
  await amber.restart();
  await missed.waitFor();
  expect(await missed.textContent()).toContain('“Heartbeat” missed 3 runs. They are not made up; each task goes on from its next time.');
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await missed.screenshot({ path: join(SCREENSHOTS, `scheduled-missed-${theme}.png`), animations: 'disabled' });
  }
  await setTheme(page, 'light');
  await missed.screenshot({ path: docsShot('scheduled-missed.png'), animations: 'disabled' });
  await missed.getByRole('button', { name: 'Show' }).click();
  const section = page.getByTestId('settings-schedule');
  await expect.poll(() => section.locator('[data-testid=schedule-run][data-state=missed]').textContent()).toContain('Missed 3 runs while Amber was closed.');

  // A reload reconnects to the same Amber: the batch was told, and is not told again.
  await page.reload();
  const again = await openScheduledTasks(page);
  await again.locator('[data-testid=schedule-run][data-state=missed]').waitFor();
  expect(await missed.count()).toBe(0);
});
