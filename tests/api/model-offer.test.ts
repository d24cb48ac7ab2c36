// Every model each connection's server lists is offered — in chat.models (the picker), and in /model's
// completion — with the catalog's facts beside each, and "Refresh models" asks the servers again. Real
// provider plugins in their own processes, two loopback servers, each listing two models.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ModelChoice } from '../../src/shared/api/index.ts';
import { FileSecretStore } from '../../src/main/providers/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

let t: AppUnderTest;
let alpha: ProviderServer;
let beta: ProviderServer;
/** What the second server lists; a test changes it to see a refresh follow. */
let betaModels: string[];

const listing = (ids: string[]) => ({ kind: 'json' as const, body: { object: 'list', data: ids.map((id) => ({ id })) } });

beforeEach(async () => {
  betaModels = ['gpt-4o-mini', 'beta-other'];
  alpha = await startProviderServer({ script: listing(['alpha-small', 'alpha-large']) });
  beta = await startProviderServer({ script: () => listing(betaModels) });
  t = openApp({
    prefix: 'amber-model-offer-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: (dir) => ({
      startPlugins: true,
      home: dir,
      workspace: join(dir, 'ws'),
      secrets: new FileSecretStore(join(dir, 'secrets.json'), { warn: () => {} }),
    }),
  });
});

afterEach(async () => {
  await t.close();
  await alpha.close();
  await beta.close();
});

const offered = async (sessionId: string) => (await t.call<{ models: ModelChoice[] }>('chat.models', { sessionId })).models;
const ids = (models: ModelChoice[]) => models.map((m) => `${m.provider}/${m.modelId}`).sort();

test('every model the server listed at setup is offered, grouped by connection, and a refresh brings what a server lists now', async () => {
  // Setup as the first-run screen does it: test the connection, save with the chosen model and the list.
  const tested = await t.call<{ ok: boolean; models: string[] }>('providers.test', { baseUrl: `${alpha.url}/v1`, flavor: 'custom' });
  expect(tested.models).toEqual(['alpha-small', 'alpha-large']);
  await t.call('providers.save', { providerId: 'custom', flavor: 'custom', baseUrl: `${alpha.url}/v1`, model: 'alpha-large', models: tested.models });
  // A connection saved before lists were kept: only its chosen model.
  await t.call('providers.save', { providerId: 'lmstudio', flavor: 'lmstudio', baseUrl: `${beta.url}/v1`, model: 'gpt-4o-mini' });
  const s = t.app.sessions.create({ cwd: null });
  await expect.poll(async () => ids(await offered(s.id)), { timeout: 20_000 }).toEqual(['custom/alpha-large', 'custom/alpha-small', 'lmstudio/gpt-4o-mini']);

  const refreshed = await t.call<{ accounts: { id: string; ok: boolean; models: number }[] }>('providers.refreshModels', {});
  expect(refreshed.accounts).toEqual(
    expect.arrayContaining([expect.objectContaining({ id: 'custom', ok: true, models: 2 }), expect.objectContaining({ id: 'lmstudio', ok: true, models: 2 })]),
  );
  const models = await offered(s.id);
  expect(ids(models)).toEqual(['custom/alpha-large', 'custom/alpha-small', 'lmstudio/beta-other', 'lmstudio/gpt-4o-mini']);
  // Grouped by the connection's name; the catalog's facts where it knows the model (LM Studio runs locally: free).
  expect(new Set(models.map((m) => m.account))).toEqual(new Set(['Other OpenAI-compatible server', 'LM Studio']));
  await expect
    .poll(async () => (await offered(s.id)).find((m) => m.modelId === 'gpt-4o-mini'), { timeout: 20_000 })
    .toMatchObject({ contextWindow: 128_000, price: { input: 0, output: 0 }, images: true });
  expect(models.find((m) => m.modelId === 'alpha-small')).toMatchObject({ contextWindow: null, price: null });

  // /model completes every model, with its facts beside it.
  const completions = await t.call<{ insert: string; help: string }[]>('commands.complete', { input: '/model ' });
  expect(completions.map((c) => c.insert.trim()).filter((c) => c.includes('/'))).toEqual(
    expect.arrayContaining(['/model custom/alpha-small', '/model custom/alpha-large', '/model lmstudio/beta-other', '/model lmstudio/gpt-4o-mini']),
  );
  expect(completions.find((c) => c.insert.includes('lmstudio/gpt-4o-mini'))?.help).toContain('128k context · free');

  // A server that lists something else later: a refresh follows; the default model (saved last) stays offered.
  betaModels = ['beta-new'];
  await t.call('providers.refreshModels', {});
  expect(ids(await offered(s.id))).toEqual(['custom/alpha-large', 'custom/alpha-small', 'lmstudio/beta-new', 'lmstudio/gpt-4o-mini']);
});
