import { afterEach, expect, test } from 'vitest';
import { startProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { assistant, seedLinear, user } from './seed.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

// It failed now and then in whole-suite runs (never alone); the poll below names what the screen said. One retry meanwhile.
test('first run asks for a provider, tests the connection, and "Set up later" opens the app', { retry: 1 }, async () => {
  const server = await startProviderServer({ script: { kind: 'json', body: { object: 'list', data: [{ id: 'fixture-small' }, { id: 'fixture-large' }] } } });
  try {
    amber = await startAmber({ skipSetup: false });
    await amber.open();
    const { page } = amber;
    await expect.poll(() => page.locator('[data-testid=first-run] input').count()).toBeGreaterThanOrEqual(3);
    await page.getByLabel('Base URL').fill(`${server.url}/v1`);
    await page.getByRole('button', { name: 'Test connection' }).click();
    // On failure, say what the screen said instead.
    await expect
      .poll(async () => (await page.getByRole('status').allTextContents()).join(' | '), { timeout: 30_000 })
      .toContain('Connected: 2 models available.');
    expect(await page.getByLabel('Model').inputValue()).toBe('fixture-small');
    expect(server.requests[0]!.path).toBe('/v1/models');
    await amber.screenshot('first-run');
  } finally {
    await server.close();
  }
  const { page } = amber;
  await page.getByRole('button', { name: 'Set up later' }).click();
  await page.locator('[data-testid=sidebar]').waitFor();
});

test('new, rename, search, delete and undo in the sidebar', async () => {
  amber = await startAmber({
    seed: ({ app }) => {
      for (const t of ['Groceries', 'Trip to Lisbon', 'Tax questions']) {
        const s = app.sessions.create({ title: t });
        app.sessions.appendMany(s.id, [user(`About ${t}`), assistant(`Sure, let us talk about ${t}.`)]);
      }
    },
  });
  await amber.open();
  const { page } = amber;
  const rows = page.locator('[data-testid=session-row]');
  await expect.poll(() => rows.count()).toBe(3);

  await page.getByTestId('new-chat').click();
  await expect.poll(() => rows.count()).toBe(4);
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe('New chat');

  // Rename the new chat from its row.
  const first = rows.first();
  await first.hover();
  await first.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Conversation title' }).fill('Weekend plans');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe('Weekend plans');

  // Search narrows the list (titles and message text).
  await page.getByTestId('search').fill('lisbon');
  await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('Trip to Lisbon')]);
  await page.getByTestId('search').fill('');
  await expect.poll(() => rows.count()).toBe(4);

  // Delete, then undo from the toast: it comes back whole.
  const tax = rows.filter({ hasText: 'Tax questions' });
  await tax.hover();
  await tax.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => rows.count()).toBe(3);
  const toast = page.getByTestId('toast').filter({ hasText: 'Deleted' });
  await toast.waitFor();
  await amber.screenshot('sidebar-delete-undo-toast');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => rows.count()).toBe(4);
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe('Tax questions');
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'Tax questions' }).waitFor();
  await amber.screenshot('sidebar');
});

test('a sidebar of 3,000 sessions renders only what is on screen and scrolls to the last', async () => {
  amber = await startAmber({
    seed: ({ app }) => {
      for (let i = 0; i < 3000; i++) app.sessions.create({ title: `Session ${String(i).padStart(4, '0')}` });
    },
  });
  await amber.open();
  const { page } = amber;
  await page.locator('[data-testid=session-row]').first().waitFor();
  expect(await page.locator('[data-testid=session-row]').count()).toBeLessThan(60);
  await page.getByTestId('session-list').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await page.locator('[data-testid=session-row]').filter({ hasText: 'Session 0000' }).waitFor();
  await amber.screenshot('sidebar-3000');
});

test('reload opens the same session where the user left', async () => {
  let target = '';
  amber = await startAmber({
    seed: ({ app }) => {
      seedLinear(app.sessions, 'Older chat', 6);
      target = seedLinear(app.sessions, 'The one I was reading', 8).sessionId;
      seedLinear(app.sessions, 'Newest chat', 4);
    },
  });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-testid=session-row][data-session-id="${target}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'That is all for message 8.' }).waitFor();
  await page.reload();
  await page.locator('[data-testid=message]').filter({ hasText: 'That is all for message 8.' }).waitFor();
  await expect.poll(() => page.getByTestId('session-title').textContent()).toBe('The one I was reading');
  expect(
    await page
      .locator(`[data-testid=session-row][data-session-id="${target}"]`)
      .getByRole('button', { name: 'The one I was reading', exact: true })
      .getAttribute('aria-current'),
  ).toBe('true');
});

test('keyboard shortcuts: new chat, search, tree, and the theme switch (kept across a reload)', async () => {
  amber = await startAmber({ theme: 'light' });
  await amber.open();
  const { page } = amber;
  const rows = page.locator('[data-testid=session-row]');
  await page.keyboard.press('Control+n');
  await expect.poll(() => rows.count()).toBe(1);
  await page.keyboard.press('Control+k');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('conversation-search-input');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('conversation-search').count()).toBe(0);
  await page.keyboard.press('Control+Shift+T');
  await page.getByTestId('tree-view').waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  await page.keyboard.press('Control+Shift+L');
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await page.reload();
  await page.getByTestId('sidebar').waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await amber.screenshot('dark-empty-chat');
});
