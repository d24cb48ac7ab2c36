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
