// Settings, Conversations and tools: "Long conversations" switches the hiding of old tool output and sets how
// many of the newest tokens stay whole, the same settings as /set context.maskAfterTokens and context.maskBatchTokens.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type Amber, SCREENSHOTS, startAmber } from './harness.ts';

let amber: Amber | null = null;
// docs/images/context-settings.png is written only when asked (AMBER_DOCS_SCREENSHOT=1), so a test run leaves the docs alone.
const shot = (name: string) => join(process.env.AMBER_DOCS_SCREENSHOT ? join(import.meta.dirname, '../../docs/images') : SCREENSHOTS, name);

afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('Settings hides old tool output by default, keeps the tokens typed whole, and switches it off and on again', async () => {
  amber = await startAmber();
  await amber.open();
  const { page, shell } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByRole('tablist', { name: 'Settings pages' }).getByRole('tab', { name: 'Conversations and tools', exact: true }).click();
  const toggle = page.getByTestId('context-masking-enabled');
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
  const after = page.getByTestId('context-mask-after');
  expect(await after.inputValue()).toBe('40000');
  expect(await page.getByTestId('context-mask-batch').inputValue()).toBe('20000');
  await after.fill('80000');
  await after.blur();
  await expect.poll(() => shell.app.settings.get('context.maskAfterTokens')).toBe(80_000);
  // A value out of range is not saved; the field shows the stored one again.
  await after.fill('-5');
  await after.blur();
  await expect.poll(() => after.inputValue()).toBe('80000');
  await page.getByTestId('settings-context').screenshot({ path: shot('context-settings.png'), animations: 'disabled' });

  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  expect(shell.app.settings.get('context.maskAfterTokens')).toBe(0);
  expect(await page.getByTestId('context-mask-after').count()).toBe(0);
  await toggle.click();
  await expect.poll(() => shell.app.settings.get('context.maskAfterTokens')).toBe(40_000);
});
