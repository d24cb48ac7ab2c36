// The rough edges a new user meets in the window, each pinned where it was seen.
import { afterEach, expect, test } from 'vitest';
import { type Amber, startAmber } from './harness.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('panels show one Wallets card and one Allowances card, and an allowance that limits nothing is not listed', async () => {
  amber = await startAmber();
  await amber.open();
  const { page } = amber;
  await page.getByTestId('toggle-panels').click();
  const panels = page.getByTestId('panels');
  // The wallet plugin's and the budget plugin's panels are part of the app's cards, not cards of the same name.
  await panels.locator('[data-testid=wallets-panel] [data-testid=plugin-panel][data-plugin=wallet]').waitFor();
  await panels.locator('[data-testid=allowances-panel] [data-testid=plugin-panel][data-plugin=budget]').waitFor();
  await expect.poll(() => panels.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Wallets', 'Allowances']);
  // No card contradicts the plugin that is active: the app's "no wallet" line gives way to the plugin's word.
  await expect.poll(() => panels.textContent()).not.toContain('No wallet: a plugin such as Wallet');
  expect(await panels.getByTestId('wallets-panel').textContent()).toContain('Not set up');
  // The budget plugin without a budget limits nothing: no "0% of 100%", only its own "No budgets are set".
  await panels.getByText('No budgets are set').waitFor();
  expect(await panels.locator('[data-testid=allowance]').count()).toBe(0);
  await amber.screenshot('rough-panels');
});

test('every provider choice on the first-run screen fits on one line, and the arrow keys move the choice', async () => {
  amber = await startAmber({ skipSetup: false });
  await amber.open();
  const { page } = amber;
  const other = page.getByRole('radio', { name: 'Other OpenAI-compatible server' });
  const heights = await page.getByRole('radio').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(new Set(heights).size).toBe(1);
  expect(await other.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await amber.screenshot('rough-first-run-presets');
  // Tab reaches the group once; an arrow key moves the choice and the focus with it.
  const checked = page.locator('[role=radio][aria-checked=true]');
  await checked.focus();
  const before = await checked.textContent();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => checked.textContent()).not.toBe(before);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-checked'))).toBe('true');
  expect(await page.locator('[role=radio][tabindex="0"]').count()).toBe(1);
});
