// The model picker beside Send, as a user meets it: two connections (two loopback servers, each listing two
// models, each answering chats), every model offered grouped by connection, typing filters, the keyboard
// picks, and the next reply comes from the model picked — checked in the request the server received.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listsModelsAndReplies, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, SCREENSHOTS, startAmber } from './harness.ts';

const DOCS_IMAGES = resolve(import.meta.dirname, '../../docs/images');

let amber: Amber | null = null;
let alpha: ProviderServer;
let beta: ProviderServer;
let dir: string;

const server = listsModelsAndReplies;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-model-picker-'));
  mkdirSync(join(dir, 'workspace'));
  alpha = await startProviderServer({ script: server(['alpha-small', 'alpha-large'], 'From alpha.') });
  beta = await startProviderServer({ script: server(['gpt-4o-mini', 'beta-other'], 'From beta.') });
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await alpha.close();
  await beta.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the picker offers every model of two connections grouped by connection, filters as one types, and the next reply comes from the pick', async () => {
  amber = await startAmber({
    core: { workspace: join(dir, 'workspace'), home: dir },
    seed: async ({ api }) => {
      // As setup saves them: the chosen model and every model the connection test listed.
      for (const [providerId, url, model, models] of [
        ['custom', alpha.url, 'alpha-small', ['alpha-small', 'alpha-large']],
        ['lmstudio', beta.url, 'gpt-4o-mini', ['gpt-4o-mini', 'beta-other']],
      ] as const) {
        const saved = await api.call('providers.save', { providerId, flavor: providerId, baseUrl: `${url}/v1`, model, models: [...models] });
        expect(saved.ok).toBe(true);
      }
    },
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('new-chat').click();
  const picker = page.getByTestId('model-picker');
  // The default is the model saved last; the button names it as the catalog does.
  await expect.poll(() => picker.textContent(), { timeout: 20_000 }).toBe('GPT-4o mini');

  await picker.click();
  const list = page.getByRole('listbox', { name: 'Models' });
  const options = list.getByRole('option');
  await expect.poll(() => options.count(), { timeout: 20_000 }).toBe(4);
  const groups = page.getByTestId('model-group');
  expect(await groups.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))).toEqual(['Other OpenAI-compatible server', 'LM Studio']);
  expect(await groups.nth(1).getByRole('option').allTextContents()).toEqual([expect.stringContaining('GPT-4o mini'), expect.stringContaining('beta-other')]);
  // The catalog's facts beside a model it knows (LM Studio runs locally: free).
  await expect.poll(() => list.getByRole('option', { name: /GPT-4o mini/ }).textContent()).toContain('128k context · free · images');
  expect(await list.getByRole('option', { selected: true }).textContent()).toContain('GPT-4o mini');
  // docs/images/model-picker.png is written only when asked (AMBER_DOCS_SCREENSHOT=1), so a test run leaves the docs alone.
  await page.screenshot({ path: join(process.env.AMBER_DOCS_SCREENSHOT ? DOCS_IMAGES : SCREENSHOTS, 'model-picker.png'), animations: 'disabled' });

  // Typing filters; Enter picks the row shown.
  await page.keyboard.type('alpha lar');
  await expect.poll(() => options.count()).toBe(1);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('model-popover').count()).toBe(0);
  await expect.poll(() => picker.textContent()).toBe('alpha-large');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('model-picker');

  // Ctrl+Shift+M opens it from anywhere in the window.
  await page.getByTestId('composer').focus();
  await page.keyboard.press('Control+Shift+M');
  await page.getByTestId('model-search').waitFor();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('model-popover').count()).toBe(0);

  // The arrow keys move, Escape closes without picking and gives the focus back.
  await page.keyboard.press('Enter');
  await page.getByTestId('model-search').waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('model-popover').count()).toBe(0);
  expect(await picker.textContent()).toBe('alpha-large');

  await page.getByTestId('composer').fill('Which model are you?');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'From alpha.' }).waitFor();
  const chats = alpha.requests.filter((r) => r.method === 'POST');
  expect(chats.at(-1)?.body).toMatchObject({ model: 'alpha-large' });
  expect(beta.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('"Refresh models" offers what a connection lists now', async () => {
  amber = await startAmber({
    core: { workspace: join(dir, 'workspace'), home: dir },
    // Saved before setup kept the list: only the chosen model.
    seed: async ({ api }) =>
      void (await api.call('providers.save', { providerId: 'custom', flavor: 'custom', baseUrl: `${alpha.url}/v1`, model: 'alpha-small' })),
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('new-chat').click();
  await page.getByTestId('model-picker').click();
  const options = page.getByRole('listbox', { name: 'Models' }).getByRole('option');
  await expect.poll(() => options.count(), { timeout: 20_000 }).toBe(1);
  await page.getByTestId('refresh-models').click();
  await expect
    .poll(() => options.allTextContents(), { timeout: 20_000 })
    .toEqual([expect.stringContaining('alpha-small'), expect.stringContaining('alpha-large')]);
});

test('setup offers every model the server listed, and after saving the picker has them all', async () => {
  amber = await startAmber({ skipSetup: false, core: { workspace: join(dir, 'workspace'), home: dir } });
  await amber.open();
  const { page } = amber;
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  await page.getByLabel('Base URL').fill(`${alpha.url}/v1`);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected: 2 models available.' }).waitFor();
  // The field lists both (a datalist) and says both will be offered.
  expect(await page.locator('datalist option').evaluateAll((els) => els.map((el) => el.getAttribute('value')))).toEqual(['alpha-small', 'alpha-large']);
  expect(await page.getByTestId('first-run-models-hint').textContent()).toContain('All 2 models');
  await page.getByLabel('Model').fill('alpha-large');
  await page.getByRole('button', { name: 'Save and start' }).click();
  const picker = page.getByTestId('model-picker');
  await expect.poll(() => picker.textContent(), { timeout: 20_000 }).toBe('alpha-large');
  await picker.click();
  await expect
    .poll(() => page.getByRole('listbox', { name: 'Models' }).getByRole('option').allTextContents(), { timeout: 20_000 })
    .toEqual([expect.stringContaining('alpha-large'), expect.stringContaining('alpha-small')]);
});
