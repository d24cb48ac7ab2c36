// Several accounts of one kind, as a user sets them up: two OpenAI-compatible servers (two loopback servers,
// each with its own key) added in Settings under names of their own, both offered in the model picker under
// those names, and both used in one conversation by switching models — each server receiving only its own
// requests, each with its own key — and one renamed later keeps its id and key.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listsModelsAndReplies, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, SCREENSHOTS, startAmber } from './harness.ts';

const DOCS_IMAGES = resolve(import.meta.dirname, '../../docs/images');

const chats = (s: ProviderServer) => s.requests.filter((r) => r.method === 'POST');

let amber: Amber | null = null;
let vllm: ProviderServer;
let llama: ProviderServer;
let dir: string;

const server = listsModelsAndReplies;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-two-accounts-'));
  mkdirSync(join(dir, 'workspace'));
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

test('two custom connections added in Settings are both used in one conversation, each server getting its own requests with its own key', async () => {
  amber = await startAmber({ core: { workspace: join(dir, 'workspace'), home: dir } });
  await amber.open();
  const { page } = amber;
  for (const [name, target, key] of [
    ['vLLM box', vllm, 'key-vllm'],
    ['llama.cpp', llama, 'key-llama'],
  ] as const) {
    // Settings stays open after a connection is saved from it.
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
  // Both connections are saved side by side, each under the name given.
  const rows = page.getByTestId('provider-row');
  await expect.poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))), { timeout: 20_000 }).toEqual(['vllm-box', 'llama-cpp']);
  await page.getByTestId('close-settings').click();

  await page.getByTestId('new-chat').click();
  const picker = page.getByTestId('model-picker');
  // The connection saved last gives new conversations their model.
  await expect.poll(() => picker.textContent(), { timeout: 20_000 }).toBe('gemma-3');
  await picker.click();
  const groups = page.getByTestId('model-group');
  await expect.poll(() => groups.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label'))), { timeout: 20_000 }).toEqual(['vLLM box', 'llama.cpp']);
  await page.screenshot({ path: join(process.env.AMBER_DOCS_SCREENSHOT ? DOCS_IMAGES : SCREENSHOTS, 'two-accounts.png'), animations: 'disabled' });
  await groups
    .nth(0)
    .getByRole('option', { name: /qwen3-32b/ })
    .click();
  await expect.poll(() => picker.textContent()).toBe('qwen3-32b');

  const composer = page.getByTestId('composer');
  const replies = page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])');
  await composer.fill('First question');
  await page.keyboard.press('Enter');
  await replies.filter({ hasText: 'From the vLLM box.' }).waitFor({ timeout: 20_000 });

  // Switching to the other connection's model: the next reply comes from the other server.
  await picker.click();
  await groups
    .nth(1)
    .getByRole('option', { name: /gemma-3/ })
    .click();
  await expect.poll(() => picker.textContent()).toBe('gemma-3');
  await composer.fill('Second question');
  await page.keyboard.press('Enter');
  await replies.filter({ hasText: 'From llama.cpp.' }).waitFor({ timeout: 20_000 });
  // Each reply's footer names its model and the connection it came from: two servers of one kind told apart.
  const footers = () =>
    replies.evaluateAll((els) => els.map((el) => [el.querySelector('.model-name')?.textContent, el.querySelector('[data-testid=reply-account]')?.textContent]));
  await expect.poll(footers, { timeout: 20_000 }).toEqual([
    ['qwen3-32b', 'vLLM box'],
    ['gemma-3', 'llama.cpp'],
  ]);
  await page.screenshot({ path: join(SCREENSHOTS, 'reply-accounts.png'), animations: 'disabled' });

  expect(chats(vllm).map((r) => [(r.body as { model: string }).model, r.headers.authorization])).toEqual([['qwen3-32b', 'Bearer key-vllm']]);
  expect(chats(llama).map((r) => [(r.body as { model: string }).model, r.headers.authorization])).toEqual([['gemma-3', 'Bearer key-llama']]);
  // Every request either server saw (tests, model lists, chats) carried that server's own key, never the other's.
  expect(vllm.requests.every((r) => r.headers.authorization === 'Bearer key-vllm')).toBe(true);
  expect(llama.requests.every((r) => r.headers.authorization === 'Bearer key-llama')).toBe(true);

  // Renamed in Settings (Edit): the same account under its new name, its key kept, the picker's group renamed.
  await page.getByTestId('open-settings').click();
  await page.getByRole('button', { name: 'Edit vLLM box' }).click();
  await page.getByTestId('provider-edit').getByLabel('Name').fill('GPU box');
  await page.getByTestId('provider-edit-save').click();
  await expect
    .poll(() => rows.evaluateAll((els) => els.map((el) => [el.getAttribute('data-id'), el.querySelector('strong')?.textContent])), { timeout: 20_000 })
    .toEqual([
      ['llama-cpp', 'llama.cpp'],
      ['vllm-box', 'GPU box'],
    ]);
  expect(amber.shell.app.providers.apiKey('vllm-box')).toBe('key-vllm');
  await page.getByTestId('close-settings').click();
  // The renamed connection's reply says its new name: the entry keeps the account's id.
  await expect.poll(footers, { timeout: 20_000 }).toEqual([
    ['qwen3-32b', 'GPU box'],
    ['gemma-3', 'llama.cpp'],
  ]);
  await picker.click();
  await expect.poll(() => groups.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label'))), { timeout: 20_000 }).toEqual(['llama.cpp', 'GPU box']);
});

test('the setup form says when saving without a name would change the saved connection of that kind', async () => {
  amber = await startAmber({
    core: { workspace: join(dir, 'workspace'), home: dir },
    // Saved as before names existed: the preset's own account.
    seed: (shell) => void shell.app.providers.save({ presetId: 'custom', baseUrl: `${vllm.url}/v1`, model: 'qwen3-32b' }),
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByTestId('setup-provider').click();
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  const note = page.getByTestId('first-run-replaces');
  await expect.poll(() => note.textContent(), { timeout: 20_000 }).toContain('changes your saved connection “Other OpenAI-compatible server”');
  // Another kind has no saved connection of its own here: nothing to say.
  await page.getByRole('radio', { name: 'OpenAI', exact: true }).click();
  await expect.poll(() => note.count()).toBe(0);
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  await expect.poll(() => note.count()).toBe(1);
  await page.getByTestId('first-run-name').fill('llama.cpp');
  await expect.poll(() => note.count()).toBe(0);
});
