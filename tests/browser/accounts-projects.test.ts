// Two accounts and a project as a new user meets them: two OpenAI-compatible connections added in Settings
// (each row saying which account it is), a project made with the folder field's suggestions and its model from
// one account, edited to the other account's model, a conversation started in it from the menu beside New (by
// keyboard), and a switch of model across accounts — each server getting only its own requests. Run at 1280 px
// light and at 800 px dark, with a screenshot of each step.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listsModelsAndReplies, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { seriousViolations } from './axe-audit.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';

const chats = (s: ProviderServer) => s.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { model: string }).model);

let amber: Amber | null = null;
let vllm: ProviderServer;
let llama: ProviderServer;
let dir: string;

const server = listsModelsAndReplies;

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-accounts-projects-')));
  mkdirSync(join(dir, 'workspace'));
  mkdirSync(join(dir, 'site'));
  vllm = await startProviderServer({ script: server(['qwen3-32b'], 'From the vLLM box.') });
  llama = await startProviderServer({ script: server(['gemma-3'], 'From llama.cpp.') });
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await vllm.close();
  await llama.close();
  rmSync(dir, { recursive: true, force: true });
});

async function addConnection(page: Page, name: string, target: ProviderServer, key: string): Promise<void> {
  if (!(await page.getByTestId('setup-provider').isVisible())) await page.getByTestId('open-settings').click();
  await page.getByTestId('setup-provider').click();
  await page.getByTestId('first-run').waitFor();
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  await page.getByTestId('first-run-name').fill(name);
  await page.getByLabel('Base URL').fill(`${target.url}/v1`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected: 1 model available.' }).waitFor();
  await page.getByRole('button', { name: 'Save and start' }).click();
  await page.getByTestId('first-run').waitFor({ state: 'detached', timeout: 20_000 });
}

/** The saved-connection notes, closed as a user would before looking at the page (a later one may arrive meanwhile). */
async function closeToasts(page: Page): Promise<void> {
  const dismiss = page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss' });
  await expect
    .poll(async () => {
      for (const close of await dismiss.all()) await close.click({ timeout: 2000 }).catch(() => {});
      return dismiss.count();
    })
    .toBe(0);
}

/** The test's temp folder shown as a user's, for pictures. */
const asHome = (page: Page, folder: string) =>
  page.evaluate((f) => {
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) n.textContent = (n.textContent ?? '').split(f).join('/home/ada');
    for (const input of document.querySelectorAll('input')) if (input.value.includes(f)) input.value = input.value.split(f).join('/home/ada');
  }, folder);

for (const look of [
  { name: '1280 px light', viewport: { width: 1280, height: 800 }, theme: 'light' as const, suffix: '' },
  { name: '800 px dark', viewport: { width: 800, height: 700 }, theme: 'dark' as const, suffix: '-800-dark' },
]) {
  test(`two accounts and a project, from Settings to a conversation started from the menu beside New (${look.name})`, async () => {
    amber = await startAmber({ core: { workspace: join(dir, 'workspace'), home: dir }, viewport: look.viewport, theme: look.theme });
    await amber.open();
    const { page } = amber;
    const shot = async (name: string) => {
      await asHome(page, dir);
      await page.screenshot({ path: docsShot(`${name}${look.suffix}.png`), animations: 'disabled' });
    };

    await addConnection(page, 'vLLM box', vllm, 'key-vllm');
    await addConnection(page, 'llama.cpp', llama, 'key-llama');
    // Each row says which account it is: two of one kind, so their ids (what /model takes) too.
    const accountLines = page.getByTestId('provider-account');
    await expect
      .poll(() => accountLines.allTextContents(), { timeout: 20_000 })
      .toEqual(['Other OpenAI-compatible server · id vllm-box', 'Other OpenAI-compatible server · id llama-cpp']);
    // The note after saving says "connection", the word the Models page uses.
    await expect.poll(() => page.getByRole('region', { name: 'Notifications' }).textContent()).toContain('Connection saved');
    await closeToasts(page);
    await shot('accounts-settings');
    expect(await seriousViolations(page, '[data-testid=provider-list]')).toEqual([]);

    // A project: the folder field lists the folders that match what is typed; one click takes it.
    await page.getByRole('tab', { name: 'Projects', exact: true }).click();
    await page.getByTestId('project-add').click();
    await page.getByTestId('project-name').fill('Web site');
    await page.getByTestId('project-folder').fill(join(dir, 'si'));
    const matches = page.getByRole('list', { name: 'Folders that match' });
    await matches.getByRole('button', { name: join(dir, 'site') }).click();
    expect(await page.getByTestId('project-folder').inputValue()).toBe(`${join(dir, 'site')}/`);
    await page.getByTestId('project-model').selectOption({ label: 'qwen3-32b' });
    await page.getByTestId('project-save').click();
    const row = page.getByTestId('project-row');
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await row.textContent()).toContain('model qwen3-32b (vLLM box)');
    expect(amber.shell.app.projects.list()[0]).toMatchObject({ name: 'Web site', folder: join(dir, 'site') });

    // Edit: the form opens with the project's values; the model changes to the other account's.
    await page.getByRole('button', { name: 'Edit Web site' }).click();
    const form = page.getByTestId('project-form');
    expect(await form.getByTestId('project-folder').inputValue()).toBe(join(dir, 'site'));
    expect(await form.getByTestId('project-model').inputValue()).toBe('vllm-box/qwen3-32b');
    await form.getByTestId('project-instructions').fill('Answer briefly.');
    await form.getByTestId('project-model').selectOption({ label: 'gemma-3' });
    await closeToasts(page);
    await shot('projects-edit');
    expect(await seriousViolations(page, '[data-testid=project-form]')).toEqual([]);
    await form.getByTestId('project-save').click();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('model gemma-3 (llama.cpp)');
    expect(await row.textContent()).toContain('instructions');
    await page.getByTestId('close-settings').click();

    // The menu beside New, by keyboard: ↓ opens it on "No project", ↓ again is the project, Enter starts there.
    // At 800 px the sidebar is folded away: the top bar's button opens it.
    if (!(await page.getByTestId('sidebar').isVisible())) await page.getByTestId('toggle-sidebar').click();
    const menuButton = page.getByTestId('new-in-project');
    await menuButton.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByTestId('new-in-project-menu');
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('No project');
    await page.keyboard.press('ArrowDown');
    await shot('projects-new-menu');
    expect(await seriousViolations(page, '[data-testid=sidebar]')).toEqual([]);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('new-in-project');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Web site');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    // Ready to type, as after New.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 20_000 }).toBe('composer');

    // The conversation is in the project, with its model (the edited one, of the second account).
    const picker = page.getByTestId('model-picker');
    await expect.poll(() => picker.textContent(), { timeout: 20_000 }).toBe('gemma-3');
    await expect.poll(() => amber!.shell.app.sessions.list().filter((s) => s.cwd === join(dir, 'site')).length, { timeout: 20_000 }).toBe(1);
    const composer = page.getByTestId('composer');
    const replies = page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])');
    await composer.fill('First question');
    await page.keyboard.press('Enter');
    await replies.filter({ hasText: 'From llama.cpp.' }).waitFor({ timeout: 20_000 });

    // Across accounts in the same conversation: the first account's model, from its own server.
    await picker.click();
    await page
      .getByTestId('model-group')
      .filter({ has: page.getByRole('option', { name: /qwen3-32b/ }) })
      .getByRole('option', { name: /qwen3-32b/ })
      .click();
    await expect.poll(() => picker.textContent()).toBe('qwen3-32b');
    await composer.fill('Second question');
    await page.keyboard.press('Enter');
    await replies.filter({ hasText: 'From the vLLM box.' }).waitFor({ timeout: 20_000 });
    expect(chats(llama)).toEqual(['gemma-3']);
    expect(chats(vllm)).toEqual(['qwen3-32b']);
    await shot('projects-conversation');
  });
}
