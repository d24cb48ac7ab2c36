// Provider keys at the API edge: what the window can learn of them through providers.save. What it can learn
// through providers.test is pinned where the test runs through the real provider plugins:
// provider-connection-test.test.ts.
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import { FileSecretStore } from '../../src/main/providers/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

const KEY = 'sk-custom-0123456789abcdef';

let t: AppUnderTest;
let app: App;

beforeEach(() => {
  t = openApp({
    prefix: 'amber-provider-secrets-',
    app: (dir) => ({ dataDir: dir, secrets: new FileSecretStore(join(dir, 'secrets.json'), { warn: () => {} }) }),
  });
  ({ app } = t);
});

afterEach(() => t.close());

const ok = <T>(channel: string, input: unknown) => t.call<T>(channel, input);

test('saving a provider at another origin without a new key clears the stored key, and the result says so', async () => {
  expect(await ok('providers.save', { providerId: 'custom', baseUrl: 'https://models.example/v1', apiKey: KEY, model: 'm' })).toEqual({
    ok: true,
    accountId: 'custom',
    keyCleared: false,
  });
  expect(await ok('providers.save', { providerId: 'custom', baseUrl: 'https://models.example/v2', model: 'm' })).toEqual({
    ok: true,
    accountId: 'custom',
    keyCleared: false,
  });
  const moved = await ok<{ keyCleared: boolean; notice?: string }>('providers.save', {
    providerId: 'custom',
    baseUrl: 'https://elsewhere.example/v1',
    model: 'm',
  });
  expect(moved).toEqual({
    ok: true,
    accountId: 'custom',
    keyCleared: true,
    notice: expect.stringContaining('https://elsewhere.example), so the stored API key was removed'),
  });
  expect(app.providers.pluginConfig('openai_compatible')).toEqual({
    accounts: [expect.objectContaining({ baseUrl: 'https://elsewhere.example/v1', apiKey: undefined })],
  });
});
