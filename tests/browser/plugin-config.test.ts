// A plugin's settings as a user edits them: the wallet's OpenRouter key typed into its form in Settings,
// checked as it is typed, kept secret, and the balance it unlocks shown in Panels — against a loopback
// server playing OpenRouter's credits endpoint.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type AccountServer, OPENROUTER_PATH, startAccountServer } from '../plugins-bundled/account-server.ts';
import { type Amber, startAmber, docsShot } from './harness.ts';

const KEY = 'sk-or-v1-typed-into-the-settings-form';
// The app's CSP forbids inline scripts, so axe goes in through the debugger protocol.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical WCAG 2.1 A/AA violations inside `selector`, as readable lines. */
async function audit(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ include: [include] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}`));
  }, selector);
}

let amber: Amber | null = null;
let server: AccountServer;

beforeEach(async () => {
  server = await startAccountServer();
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await server.close();
});

test("a user sets the wallet's OpenRouter key in Settings and sees the balance in Panels; the key never comes back to the page", async () => {
  amber = await startAmber();
  await amber.open();
  const { page } = amber;

  // Before: the wallet's panel sends the user to its settings.
  await page.getByTestId('toggle-panels').click();
  const wallets = page.getByTestId('wallets-panel');
  await wallets.getByText('add your OpenRouter API key in Settings → Plugins → Wallet → Settings').waitFor();

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-plugins').click();
  const row = page.locator('[data-testid=plugin-row][data-id=wallet]');
  await row.getByRole('button', { name: 'Wallet settings' }).click();
  const form = row.getByTestId('plugin-config-form');
  await form.getByLabel('API key').first().waitFor();
  const field = (key: string) => form.locator(`[data-testid=plugin-config-field][data-key="${key}"]`);

  // Checked as typed: the reason shows under the field and Save holds back.
  await field('refreshMinutes').locator('input').fill('soon');
  await expect.poll(() => field('refreshMinutes').getByTestId('plugin-config-field-error').textContent()).toBe('Refresh every (minutes) must be a number.');
  expect(await field('refreshMinutes').locator('input').getAttribute('aria-invalid')).toBe('true');
  expect(await form.getByTestId('plugin-config-save').getAttribute('aria-disabled')).toBe('true');
  // The form, its error included, passes axe: labelled fields, errors and hints tied to them, AA contrast.
  expect(await audit(page, '[data-testid=plugin-config-form]')).toEqual([]);
  await field('refreshMinutes').locator('input').fill('');
  await expect.poll(() => field('refreshMinutes').getByTestId('plugin-config-field-error').count()).toBe(0);

  await field('openrouter.apiKey').locator('input').fill(KEY);
  expect(await field('openrouter.apiKey').locator('input').getAttribute('type')).toBe('password');
  await field('openrouter.baseUrl').locator('input').fill(server.openrouterBaseUrl);
  await amber.screenshot('plugin-config-wallet-form');
  await form.getByTestId('plugin-config-save').click();

  // Saved: the secret shows only as set, and the page holds it nowhere.
  await expect.poll(() => field('openrouter.apiKey').locator('input').getAttribute('placeholder')).toMatch(/^•+ \(set; type to replace\)$/);
  // Once saved and applied, the typed key leaves the field too.
  await expect.poll(() => field('openrouter.apiKey').locator('input').inputValue()).toBe('');
  expect(await page.content()).not.toContain(KEY);

  // Live: the wallet, started again with its key, offers the account; a refresh reads the balance.
  await page.getByTestId('close-settings').click();
  const openrouter = wallets.locator('[data-testid=wallet][data-id=openrouter]');
  await openrouter.waitFor();
  await openrouter.getByTestId('wallet-refresh').click();
  await expect.poll(() => openrouter.locator('.wallet-balance').textContent()).toBe('$14.75');
  expect(server.seen).toContainEqual({ path: OPENROUTER_PATH, authorization: `Bearer ${KEY}` });
  await amber.screenshot('plugin-config-wallet-balance');
  expect(await page.content()).not.toContain(KEY);

  // Another base URL: the form says before saving that the stored key goes, and after saving it is gone.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-plugins').click();
  await row.waitFor();
  if ((await form.count()) === 0) await row.getByRole('button', { name: 'Wallet settings' }).click();
  await field('openrouter.baseUrl').locator('input').fill('http://127.0.0.1:9/elsewhere');
  await expect
    .poll(() => field('openrouter.baseUrl').getByTestId('plugin-config-field-notice').textContent())
    .toBe('Changing the Base URL drops the stored API key; enter it again.');
  await form.getByTestId('plugin-config-save').click();
  await expect.poll(() => field('openrouter.apiKey').locator('input').getAttribute('placeholder')).toBe('not set');
  expect(await field('openrouter.baseUrl').getByTestId('plugin-config-field-notice').count()).toBe(0);
  expect(readFileSync(`${amber.shell.app.dataDir}/secrets.json`, 'utf8')).not.toContain(KEY);
});

test('a value out of range is refused under its field before it is sent; once fixed it is saved and applied', async () => {
  amber = await startAmber();
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-plugins').click();
  const row = page.locator('[data-testid=plugin-row][data-id=wallet]');
  await row.getByTestId('plugin-settings-toggle').click();
  const form = row.getByTestId('plugin-config-form');
  const timeout = form.locator('[data-testid=plugin-config-field][data-key=timeoutMs] input');
  await timeout.waitFor();
  // Beyond the schema's maximum: the form says so at once.
  await timeout.fill('999999');
  await expect.poll(() => form.getByTestId('plugin-config-field-error').textContent()).toBe('Request timeout (ms) must be at most 120000.');
  await timeout.fill('2500');
  await form.getByTestId('plugin-config-save').click();
  await expect.poll(() => amber!.shell.app.pluginConfig.get('wallet').values['timeoutMs']).toBe(2500);
  // Changed elsewhere (another window, /set) while the form is open: the form shows the stored value.
  await amber.shell.app.pluginConfig.set('wallet', { warnBelow: 3 });
  await expect.poll(() => form.locator('[data-testid=plugin-config-field][data-key=warnBelow] input').inputValue()).toBe('3');
  // Keyboard: the settings button says whether the form is open.
  expect(await row.getByTestId('plugin-settings-toggle').getAttribute('aria-expanded')).toBe('true');
});

test('number fields show what they count ($, tokens, a percentage), help shared by a group is said once, a typed key can be shown, and Save says Saved', async () => {
  amber = await startAmber();
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-plugins').click();
  const row = page.locator('[data-testid=plugin-row][data-id=budget]');
  await row.getByRole('button', { name: 'Budget settings' }).click();
  const form = row.getByTestId('plugin-config-form');
  const field = (key: string) => form.locator(`[data-testid=plugin-config-field][data-key="${key}"]`);
  await field('warnAt').waitFor();
  expect(await field('limits.dayUsd').locator('.config-unit').allTextContents()).toEqual(['$']);
  expect(await field('limits.dayTokens').locator('.config-unit').allTextContents()).toEqual(['tokens']);
  // A fraction is shown and typed as a percentage: its default 0.8 reads 80 %.
  expect(await field('warnAt').locator('.config-unit').allTextContents()).toEqual(['%']);
  expect(await field('warnAt').locator('input').getAttribute('placeholder')).toBe('default: 80');
  // The six limits' help is said once, under the group's heading; no limit repeats it.
  const hint = form.getByTestId('plugin-config-group-hint');
  expect(await hint.count()).toBe(1);
  expect(await hint.textContent()).toBe('Model calls stop once the spend reaches a limit; empty sets no limit. A limit set with /budget or the panel wins.');
  expect(await form.locator('[data-testid=plugin-config-field][data-key^="limits."] .hint').count()).toBe(0);
  expect(await field('limits.dayUsd').locator('input').getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
  expect(await audit(page, '[data-testid=plugin-config-form]')).toEqual([]);

  await field('warnAt').locator('input').fill('150');
  await expect.poll(() => field('warnAt').getByTestId('plugin-config-field-error').textContent()).toBe('Warn at must be a percentage above 0 and at most 100.');
  await field('warnAt').locator('input').fill('50');
  await field('limits.dayUsd').locator('input').fill('2.5');
  await page.screenshot({ path: docsShot('plugin-form-units.png'), animations: 'disabled' });
  await form.getByTestId('plugin-config-save').click();
  await form.getByTestId('plugin-config-saved').filter({ hasText: 'Saved' }).waitFor();
  expect(amber.shell.app.pluginConfig.get('budget').values).toMatchObject({ warnAt: 0.5, 'limits.dayUsd': 2.5 });
  expect(await field('warnAt').locator('input').inputValue()).toBe('50');
  // The next edit takes the confirmation away until it is saved again.
  await field('limits.dayUsd').locator('input').fill('3');
  expect(await form.getByTestId('plugin-config-saved').count()).toBe(0);

  // A key being typed can be shown to check it, and hidden again.
  await page.locator('[data-testid=plugin-row][data-id=wallet]').getByRole('button', { name: 'Wallet settings' }).click();
  const wallet = page.locator('[data-testid=plugin-row][data-id=wallet]').getByTestId('plugin-config-form');
  const key = wallet.locator('[data-testid=plugin-config-field][data-key="openrouter.apiKey"]');
  await key.locator('input').fill(KEY);
  expect(await key.locator('input').getAttribute('type')).toBe('password');
  await key.getByRole('button', { name: 'Show the API key' }).click();
  expect(await key.locator('input').getAttribute('type')).toBe('text');
  await key.getByRole('button', { name: 'Hide the API key' }).click();
  expect(await key.locator('input').getAttribute('type')).toBe('password');
});
