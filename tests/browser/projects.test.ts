// Projects as a user meets them: a project made in Settings from a folder, with instructions; a conversation
// started in it from its group in the sidebar; the instructions reach the loopback model's request (its
// system message); the sidebar groups the conversation under the project, the rest under "No project";
// Ctrl+K searches within the project when asked to; and moving a conversation to the project's folder moves it
// to the project's group.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer | null = null;
let dir = '';
afterEach(async () => {
  await amber?.close();
  await model?.close();
  amber = null;
  model = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const INSTRUCTIONS = 'Always answer in French and sign as Ambre.';

test('a project made from a folder with instructions: a conversation started in it sends them to the model, and the sidebar groups it', async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-projects-')));
  const workspace = join(dir, 'workspace');
  const site = join(dir, 'site');
  mkdirSync(workspace);
  mkdirSync(site);
  model = await startModel([openAiStream({ text: 'Bonjour ! — Ambre' }), openAiStream({ text: 'A reply elsewhere.' })]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  await amber.open();
  const { page } = amber;

  // A conversation outside any project, so "No project" has one.
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Outside question');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Bonjour' }).waitFor({ timeout: 20_000 });

  await page.getByTestId('open-settings').click();
  await page.getByRole('tab', { name: 'Projects', exact: true }).click();
  await page.getByTestId('project-add').click();
  await page.getByTestId('project-name').fill('Web site');
  await page.getByTestId('project-folder').fill(site);
  await page.getByTestId('project-instructions').fill(INSTRUCTIONS);
  await page.getByTestId('project-policy').selectOption('read');
  await page.getByTestId('project-save').click();
  const row = page.getByTestId('project-row');
  await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
  expect(await row.textContent()).toContain(site);
  expect(await row.textContent()).toContain('policy read');
  // For the docs, the test's temp folder written as a user's folder.
  const section = page.getByTestId('settings-projects');
  await section.evaluate((el, folder) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) n.textContent = (n.textContent ?? '').split(folder).join('/home/ada');
  }, dir);
  await section.screenshot({ path: docsShot('projects-settings.png'), animations: 'disabled' });
  await page.getByTestId('close-settings').click();

  // The sidebar now has the project's group (empty) and "No project" with the first conversation.
  const headings = page.getByTestId('project-heading');
  await expect.poll(() => headings.allTextContents(), { timeout: 20_000 }).toEqual(['Web site · 0', 'No project · 1']);
  await page.getByRole('button', { name: 'New conversation in Web site' }).click();
  await expect.poll(() => headings.allTextContents(), { timeout: 20_000 }).toEqual(['Web site · 1', 'No project · 1']);
  await page.getByTestId('composer').fill('Say hello');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'A reply elsewhere.' }).waitFor({ timeout: 20_000 });

  // The project's instructions reached this request's system message, and not the conversation outside it.
  const chats = model.requests.filter((r) => r.method === 'POST');
  expect(chats).toHaveLength(2);
  const system = (i: number) =>
    JSON.stringify((chats[i]!.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'system'));
  expect(system(1)).toContain(INSTRUCTIONS);
  expect(system(1)).toContain('Instructions of the project \\"Web site\\"');
  expect(system(0)).not.toContain(INSTRUCTIONS);

  // The sidebar shows the new conversation right under its project's heading; the policy came from the project.
  const order = await page
    .getByTestId('session-list')
    .locator('[data-testid=project-heading], [data-testid=session-row]')
    .evaluateAll((els) =>
      els.map((el) => (el.getAttribute('data-testid') === 'project-heading' ? `# ${el.textContent}` : (el.getAttribute('data-session-id') ?? ''))),
    );
  const sessions = amber.shell.app.sessions.list();
  const inProject = sessions.find((s) => s.cwd === site)!;
  const outside = sessions.find((s) => s.cwd !== site)!;
  expect(order).toEqual(['# Web site · 1', inProject.id, '# No project · 1', outside.id]);
  expect(amber.shell.app.policy.mode(inProject.id)).toBe('read');
  // The top bar names the project before the folder.
  expect(await page.getByTestId('workspace-project').textContent()).toBe('Web site ·');
  await page.screenshot({ path: docsShot('projects.png'), animations: 'disabled' });

  // Ctrl+K scoped to the project finds only its conversation.
  await page.keyboard.press('Control+k');
  await page.getByTestId('conversation-search').waitFor();
  await page.getByTestId('conversation-search-scope').selectOption({ label: 'In Web site' });
  const results = page.getByTestId('conversation-result');
  await expect.poll(() => results.evaluateAll((els) => els.map((el) => el.getAttribute('data-session-id')))).toEqual([inProject.id]);
  await page.getByTestId('conversation-search-scope').selectOption({ label: 'All conversations' });
  await expect.poll(() => results.count()).toBe(2);
  await page.keyboard.press('Escape');

  // Moving the other conversation to the project's folder (the folder dialog offers the projects) moves it to the project's group.
  await page.locator(`[data-testid=session-row][data-session-id="${outside.id}"] .session-open`).click();
  await page.getByTestId('workspace-button').click();
  await page
    .getByTestId('workspace-projects')
    .getByRole('button', { name: /Web site/ })
    .click();
  expect(await page.getByTestId('workspace-path').inputValue()).toBe(site);
  await page.getByTestId('workspace-choose').click();
  await expect.poll(() => headings.allTextContents(), { timeout: 20_000 }).toEqual(['Web site · 2']);
  expect(amber.shell.app.sessions.get(outside.id).cwd).toBe(site);
});
