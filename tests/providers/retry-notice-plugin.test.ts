// A provider call that waits before a retry says so while it waits, through the provider's plugin process to the
// window's events; a server that refuses the connection ends the turn in well under a second, not after the
// whole backoff.
import { afterEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { providerReady } from '../fixtures/provider-ready.ts';
import { jsonFixture, openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

let t: AppUnderTest | null = null;
let server: ProviderServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
  await server?.close();
  server = null;
});

/** An app with its bundled plugins on, its provider account pointing at `url`, once that provider is installed. */
async function appWithProvider(url: string): Promise<App> {
  t = openApp({ prefix: 'amber-retry-notice-', app: () => ({ startPlugins: true }) });
  const { app } = t;
  app.providers.save({ presetId: 'custom', baseUrl: `${url}/v1`, model: 'fixture-model' });
  await providerReady(t, 'custom');
  return app;
}

const notices = () =>
  (t?.events ?? []).flatMap((e) => {
    const p = e.payload as { type?: string; code?: string; message?: string };
    return e.event === 'agent.emitted' && p.type === 'notice' ? [p] : [];
  });

test('a 503 that asks for a second is retried, and the wait is told as a notice before the reply comes', async () => {
  server = await startProviderServer();
  const app = await appWithProvider(server.url);
  server.setScript([jsonFixture('openai/server-error.json', 503, { 'retry-after': '1' }), openAiStream({ text: 'Back again.' })]);
  const session = app.sessions.create({ title: 'retry' });
  const model = app.defaultModel();
  const result = await app.agent.prompt(session.id, 'hello', model ? { model } : {});
  expect(result.reason).toBe('stop');
  expect(server.requests).toHaveLength(2);
  expect(notices()).toEqual([
    expect.objectContaining({ code: 'provider_notice', message: 'OpenAI-compatible server answered HTTP 503; trying again in 1 s (retry 1 of 3).' }),
  ]);
  const texts = app.sessions
    .context(session.id)
    .messages.map((m) => (m.role === 'assistant' ? m.content : null))
    .filter(Boolean);
  expect(texts).toEqual([[{ type: 'text', text: 'Back again.' }]]);
}, 60_000);

test('a server that refuses the connection ends the turn at once with an error naming it, after one quick retry', async () => {
  server = await startProviderServer();
  const url = server.url;
  const app = await appWithProvider(url);
  await server.close();
  server = null;
  const session = app.sessions.create({ title: 'refused' });
  const model = app.defaultModel();
  const started = performance.now();
  const result = await app.agent.prompt(session.id, 'hello', model ? { model } : {});
  const ms = performance.now() - started;
  expect(result.reason).toBe('error');
  expect(result.error).toMatch(/Could not reach .* \(after 1 retry\)\. Check that the server is running/);
  expect(result.error).toContain(url);
  // The whole backoff (1 + 2 + 4 s) is not waited out; one retry 250 ms later is.
  expect(ms).toBeLessThan(3000);
  expect(notices()).toEqual([]);
}, 60_000);
