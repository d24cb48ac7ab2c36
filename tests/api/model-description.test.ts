import { afterEach, expect, test } from 'vitest';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// A model's description (its price, its window) is read for every model call and kept between settings
// changes: a connection changed in Settings is described anew at the next call.
test("a model's description follows its connection's preset when the connection changes", async () => {
  t = openApp({ prefix: 'amber-model-description-' });
  const { app } = t;
  const saved = app.providers.save({ presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }).account;
  const pricing = { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 };
  app.plugins.registries.providers.register('test', saved.id, {
    id: saved.id,
    flavor: 'custom',
    presets: [],
    models: [{ id: 'm', contextWindow: 64_000, reasoning: false, pricing }],
    stream: async function* () {},
  });
  expect(app.modelInfo({ provider: saved.id, modelId: 'm' })).toMatchObject({ pricing, priced: true });
  expect(app.modelInfo({ provider: saved.id, modelId: 'm' })).toMatchObject({ pricing, priced: true });
  // A model on the user's own machine costs nothing, whatever the listing says.
  app.providers.save({ accountId: saved.id, presetId: 'ollama', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
  expect(app.modelInfo({ provider: saved.id, modelId: 'm' })).toMatchObject({ pricing: { input: 0, output: 0 } });
});
