// Settings as pages: the navigation (mouse and keys), and the Models page's saved connections tested against a
// real loopback server through the real provider plugin, reachable and then stopped.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber, docsShot } from './harness.ts';

let amber: Amber | null = null;
let server: ProviderServer | null = null;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-settings-pages-'));
  mkdirSync(join(dir, 'workspace'));
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

test('Settings opens on Models; a click or the arrow keys move to another page, which shows its heading', async () => {
  amber = await startAmber({ core: { workspace: join(dir, 'workspace') } });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  const nav = page.getByRole('tablist', { name: 'Settings pages' });
  const tab = (name: string) => nav.getByRole('tab', { name, exact: true });
  await page.getByRole('heading', { name: 'Models', level: 2 }).waitFor();
  expect(await tab('Models').getAttribute('aria-selected')).toBe('true');
  expect(await nav.getByRole('tab').allTextContents()).toEqual([
    'Models',
    'Conversations and tools',
    'Projects',
    'Policy',
    'Plugins',
    'MCP servers',
    'Scheduled tasks',
    'Memory',
    'Appearance',
    'Advanced',
  ]);
  // Nothing saved yet: the page says so, and Add opens the setup form. "Other OpenAI-compatible server"
  // starts with an empty address (none kept from the preset before) and a local one as the example.
  await page.getByText('No connection is saved yet').waitFor();
  await page.getByTestId('setup-provider').click();
  await page.getByTestId('first-run').waitFor();
  const presets = page.getByRole('radio');
  await presets.first().click();
  expect(await page.getByLabel('Base URL').inputValue()).not.toBe('');
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  expect(await page.getByLabel('Base URL').inputValue()).toBe('');
  expect(await page.getByLabel('Base URL').getAttribute('placeholder')).toBe('http://localhost:8080/v1');
  await page.getByRole('button', { name: 'Set up later' }).click();
  await page.getByRole('heading', { name: 'Models', level: 2 }).waitFor();

  await tab('Policy').click();
  await page.getByRole('heading', { name: 'Tool policy', level: 2 }).waitFor();
  expect(await page.getByRole('heading', { name: 'Models', level: 2 }).count()).toBe(0);
  expect(await tab('Policy').getAttribute('aria-selected')).toBe('true');

  // Keys: the selected tab holds the focus; Down moves to the next page, Up back, End to the last.
  await tab('Policy').focus();
  await page.keyboard.press('ArrowDown');
  await page.getByTestId('settings-plugins').waitFor();
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Plugins');
  await page.keyboard.press('ArrowUp');
  await page.getByTestId('settings-policy').waitFor();
  await page.keyboard.press('End');
  await page.getByRole('heading', { name: 'Shell sandbox', level: 2 }).waitFor();
  // Advanced: where each plugin runs, for looking into a problem, and each one's log.
  await page.locator('[data-testid=plugin-process-row][data-id=workspace_tools]').waitFor();
  await amber.shell.app.plugins.setState('example', true);
  await page.getByRole('button', { name: 'Log of Example' }).click();
  await expect.poll(() => page.getByRole('log', { name: 'Log of Example' }).textContent()).toMatch(/info +example plugin started in /);
  await tab('Advanced').focus();
  expect(await page.locator('[data-testid=plugin-process-row][data-id=workspace_tools] td').first().textContent()).toMatch(/^(idle|active|registered)$/);
  await page.keyboard.press('ArrowUp');
  await page.getByRole('heading', { name: 'Appearance', level: 2 }).waitFor();
  // The theme is chosen here too, in the app's own segmented control.
  await page.getByRole('radio', { name: 'Dark' }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await page.getByRole('radio', { name: 'Light' }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  // Only one tab is a Tab stop.
  expect(await nav.locator('[tabindex="0"]').count()).toBe(1);
  // At 900 px nothing scrolls sideways, on the narrowest page list and the widest page.
  await page.setViewportSize({ width: 900, height: 700 });
  for (const name of ['Plugins', 'MCP servers', 'Models']) {
    await tab(name).click();
    await expect
      .poll(() => page.getByTestId('settings').evaluate((e) => e.scrollWidth <= e.clientWidth && document.documentElement.scrollWidth <= window.innerWidth))
      .toBe(true);
  }
});

test('a saved connection is listed with its address and models; Test says reachable, and after its server stops, why it failed', async () => {
  server = await startProviderServer({
    script: (req) =>
      req.method === 'GET' ? { kind: 'json', body: { object: 'list', data: [{ id: 'loopback-chat' }, { id: 'loopback-large' }] } } : { kind: 'json', body: {} },
  });
  const url = `${server.url}/v1`;
  amber = await startAmber({
    core: { workspace: join(dir, 'workspace') },
    seed: (shell) => {
      shell.app.providers.save({ presetId: 'custom', baseUrl: url, model: 'loopback-chat' });
    },
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  const row = page.locator('[data-testid=provider-row][data-id=custom]');
  await row.waitFor();
  expect(await row.getByTestId('provider-url').textContent()).toBe(url);
  expect(await row.getByTestId('provider-models').textContent()).toContain('1 model saved: loopback-chat');
  // Tested when the page opens: the server answers with its two models.
  await row.locator('[data-testid=provider-state][data-state=reachable]').filter({ hasText: '2 models offered' }).waitFor();
  await page.screenshot({ path: docsShot('settings-after.png'), animations: 'disabled' });

  // Edit: another model for new conversations, saved in place; the key field is a secret with Show.
  await row.getByRole('button', { name: 'Edit Other OpenAI-compatible server' }).click();
  const form = row.getByTestId('provider-edit');
  expect(await form.getByLabel('API key', { exact: true }).getAttribute('type')).toBe('password');
  await form.getByLabel('Model for new conversations').fill('loopback-large');
  await form.getByTestId('provider-edit-save').click();
  await form.waitFor({ state: 'detached' });
  await expect.poll(() => row.getByTestId('provider-models').textContent()).toContain('2 models saved: loopback-large, loopback-chat');
  expect(amber.shell.app.providers.defaultModel()).toEqual({ provider: 'custom', modelId: 'loopback-large' });
  await row.locator('[data-testid=provider-state][data-state=reachable]').waitFor();

  await server.close();
  server = null;
  await row.getByRole('button', { name: 'Test Other OpenAI-compatible server' }).click();
  await row.locator('[data-testid=provider-state][data-state=failed]').waitFor();
  const reason = (await row.getByTestId('provider-reason').textContent()) ?? '';
  expect(reason.trim().length).toBeGreaterThan(10);
  expect(reason).toMatch(/[a-z]{3,} [a-z]{2,}/i);
  await page.screenshot({ path: docsShot('settings-provider-failed.png'), animations: 'disabled' });

  // Remove asks first; confirmed, the row goes and the setup form is what is left.
  await row.getByTestId('provider-remove').click();
  await row.getByTestId('provider-remove-confirm').click();
  await row.waitFor({ state: 'detached' });
  expect(amber.shell.app.providers.list()).toEqual([]);
  await page.getByText('No connection is saved yet').waitFor();
});
