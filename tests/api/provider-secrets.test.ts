// Provider keys at the API edge: what the window can learn of them through providers.save. What it can learn
// through providers.test is pinned where the test runs through the real provider plugins:
// provider-connection-test.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type ApiRouter, createApiRouter } from '../../src/main/api/index.ts';
import { type App, createApp } from '../../src/main/app.ts';
import { FileSecretStore } from '../../src/main/providers/index.ts';

const KEY = 'sk-custom-0123456789abcdef';

let dir: string;
let app: App;
let api: ApiRouter;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-provider-secrets-'));
  app = createApp({ dataDir: dir, startPlugins: false, secrets: new FileSecretStore(join(dir, 'secrets.json'), { warn: () => {} }) });
  api = createApiRouter(app, { log: () => {} });
});

afterEach(async () => {
  api.dispose();
  await app.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function ok<T>(channel: string, input: unknown): Promise<T> {
  const r = await api.call(channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

test('saving a provider at another origin without a new key clears the stored key, and the result says so', async () => {
  expect(await ok('providers.save', { providerId: 'custom', baseUrl: 'https://models.example/v1', apiKey: KEY, model: 'm' })).toEqual({ ok: true, keyCleared: false });
  expect(await ok('providers.save', { providerId: 'custom', baseUrl: 'https://models.example/v2', model: 'm' })).toEqual({ ok: true, keyCleared: false });
  const moved = await ok<{ keyCleared: boolean; notice?: string }>('providers.save', { providerId: 'custom', baseUrl: 'https://elsewhere.example/v1', model: 'm' });
  expect(moved).toEqual({ ok: true, keyCleared: true, notice: expect.stringContaining('https://elsewhere.example), so the stored API key was removed') });
  expect(app.providers.pluginConfig('openai_compatible')).toEqual({ accounts: [expect.objectContaining({ baseUrl: 'https://elsewhere.example/v1', apiKey: undefined })] });
});
