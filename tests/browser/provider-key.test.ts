// The provider setup form tells the user when saving removed a stored key: the base URL moved to another
// server, and a key is never sent to a server it was not given for.
import { afterEach, expect, test } from 'vitest';
import { type Amber, startAmber } from './harness.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('saving a provider at another server without a key says the stored key was removed and keeps the form open', async () => {
  amber = await startAmber({
    seed: (shell) => void shell.app.providers.save({ presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-seeded-key', model: 'm' }),
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('open-settings').click();
  await page.getByTestId('setup-provider').click();
  await page.getByTestId('first-run').waitFor();
  await page.getByRole('radio', { name: 'Other OpenAI-compatible server' }).click();
  await page.getByLabel('Base URL').fill('http://127.0.0.1:19/v1');
  await page.getByLabel('Model').fill('m');
  await page.getByRole('button', { name: 'Save and start' }).click();
  await page.getByRole('status').filter({ hasText: 'so the stored API key was removed' }).waitFor();
  expect(await page.getByTestId('first-run').count()).toBe(1);
  expect(amber.shell.app.providers.pluginConfig('openai_compatible')).toEqual({
    accounts: [expect.objectContaining({ baseUrl: 'http://127.0.0.1:19/v1', apiKey: undefined })],
  });
});
