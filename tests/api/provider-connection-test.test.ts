// "Test connection" end to end: providers.test through the API router reaches the real provider plugin of
// the dialect in its own process, which lists the models of a loopback server with its own code. Before
// any account is set up (the plugins decline their provider contribution then), and without the key ever
// coming back to the window, whatever the server echoes.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { FileSecretStore } from '../../src/main/providers/index.ts';
import type { PluginInfo } from '../../src/main/plugins/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { jsonError, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';

const KEY = 'sk-live-echoed-0123456789';

let under: AppUnderTest;
let app: App;
let api: ApiRouter;
let server: ProviderServer;

/** A core with its plugins started, on a temp folder of its own: its home, data folder and workspace inside. */
function build(): AppUnderTest {
  return openApp({
    prefix: 'amber-connection-test-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: (dir) => ({
      workspace: join(dir, 'ws'),
      home: dir,
      startPlugins: true,
      secrets: new FileSecretStore(join(dir, 'data', 'secrets.json'), { warn: () => {} }),
    }),
  });
}

/** Resolves once the plugin has settled as `state` (checked now and on every change). */
function until(a: App, id: string, state: PluginInfo['state']): Promise<PluginInfo> {
  return new Promise((resolve) => {
    if (a.plugins.get(id).state === state) return resolve(a.plugins.get(id));
    const sub = a.plugins.onDidChange((info) => {
      if (info.id === id && info.state === state) {
        sub.dispose();
        resolve(info);
      }
    });
  });
}

beforeAll(async () => {
  under = build();
  ({ app, api } = under);
  await Promise.all([until(app, 'openai_compatible', 'active'), until(app, 'anthropic', 'active')]);
});

afterAll(async () => {
  await under.close();
});

beforeEach(async () => {
  server = await startProviderServer();
});

afterEach(async () => {
  await server.close();
});

type TestResult = { ok: boolean; models: string[]; message: string };

function testConnection(input: Record<string, unknown>, target: AppUnderTest = under): Promise<TestResult> {
  return target.call<TestResult>('providers.test', input);
}

test('the OpenAI-compatible plugin lists the models, sending the key, while no account is set up', async () => {
  server.setScript({ kind: 'json', body: { object: 'list', data: [{ id: 'small' }, { id: 'large' }] } });
  const result = await testConnection({ baseUrl: `${server.url}/v1/`, apiKey: 'sk-test-1', dialect: 'openai-compatible', flavor: 'custom' });
  expect(result).toEqual({ ok: true, models: ['small', 'large'], message: 'Connected: 2 models available.' });
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
  expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-1');
  // The plugin offers no provider yet: the test does not hang off a contribution.
  expect(app.plugins.get('openai_compatible').contributions).toEqual([expect.objectContaining({ kind: 'provider', status: 'declined' })]);
});

test('the Anthropic plugin lists the models at /v1/models with its own headers, under a base URL without /v1', async () => {
  server.setScript({ kind: 'json', body: { data: [{ id: 'claude-sonnet-4-20250514', display_name: 'Claude Sonnet 4' }], has_more: false } });
  const result = await testConnection({ baseUrl: server.url, apiKey: 'sk-ant-test-1', dialect: 'anthropic', flavor: 'anthropic' });
  expect(result).toEqual({ ok: true, models: ['claude-sonnet-4-20250514'], message: 'Connected: 1 model available.' });
  const [request] = server.requests;
  expect(request).toMatchObject({ method: 'GET', path: '/v1/models?limit=1000' });
  expect(request!.headers).toMatchObject({ 'x-api-key': 'sk-ant-test-1', 'anthropic-version': '2023-06-01' });
  expect(request!.headers.authorization).toBeUndefined();
});

test('a refused key says to check the key, and does not quote it', async () => {
  server.setScript(jsonError(401, `Incorrect API key provided: ${KEY}`, { type: 'invalid_request_error', code: 'invalid_api_key' }));
  const result = await testConnection({ baseUrl: `${server.url}/v1`, apiKey: KEY, flavor: 'openai' });
  expect(result).toMatchObject({ ok: false, models: [] });
  expect(result.message).toMatch(/answered HTTP 401: Incorrect API key provided: \[key removed\]\. Check the API key/);
  expect(JSON.stringify(result)).not.toContain(KEY);
});

test('a port nobody listens on says the server cannot be reached', async () => {
  const dead = await startProviderServer();
  const baseUrl = `${dead.url}/v1`;
  await dead.close();
  const result = await testConnection({ baseUrl, flavor: 'custom' });
  expect(result).toMatchObject({ ok: false, models: [], message: expect.stringMatching(/^Could not reach .* ECONNREFUSED.*Check that the server is running/) });
});

test('a server that echoes the key in its error body never gets it back to the window', async () => {
  server.setScript((req) => ({
    kind: 'text',
    status: 500,
    body: `upstream rejected ${req.headers.authorization} (${encodeURIComponent(KEY)}) ${JSON.stringify({ key: KEY })}`,
  }));
  const r = await api.call('providers.test', { baseUrl: `${server.url}/v1`, apiKey: KEY });
  expect(r).toMatchObject({ ok: true, value: { ok: false, message: expect.stringContaining('upstream rejected Bearer [key removed] ([key removed])') } });
  expect(JSON.stringify(r)).not.toContain(KEY);
  expect(JSON.stringify(r)).not.toContain(encodeURIComponent(KEY));
});

test('a server that lists the key as a model id never gets it back to the window', async () => {
  server.setScript((req) => ({ kind: 'json', body: { data: [{ id: 'small' }, { id: `${req.headers['x-api-key']}` }, { id: `key:${KEY}` }] } }));
  const r = await api.call('providers.test', { baseUrl: server.url, apiKey: KEY, dialect: 'anthropic' });
  expect(r).toMatchObject({ ok: true, value: { ok: true, models: ['small', '[key removed]', 'key:[key removed]'] } });
  expect(JSON.stringify(r)).not.toContain(KEY);
});

test('a key the HTTP library refuses is not quoted back in its error', async () => {
  server.setScript({ kind: 'json', body: { data: [] } });
  const bad = `${KEY}\nX-Injected: 1`;
  const result = await testConnection({ baseUrl: `${server.url}/v1`, apiKey: bad });
  expect(result.ok).toBe(false);
  expect(JSON.stringify(result)).not.toContain(KEY);
  expect(server.requests).toHaveLength(0);
});

test('a server that never answers is given up on at the deadline main gives, and the plugin stays active', async () => {
  server.setScript(() => new Promise<never>(() => {}));
  const result = await app.plugins.probe('openai_compatible', { flavor: 'custom', baseUrl: `${server.url}/v1` }, { timeoutMs: 300 });
  expect(result).toEqual({ ok: false, models: [], message: `${server.url}/v1 did not answer in time. Check the address, and that the server is running.` });
  expect(server.requests).toHaveLength(1);
  expect(app.plugins.get('openai_compatible').state).toBe('active');
});

test('with the plugin off, the test says to turn it on, and starts nothing', async () => {
  await app.plugins.setState('openai_compatible', false);
  try {
    const r = await api.call('providers.test', { baseUrl: `${server.url}/v1`, flavor: 'ollama' });
    expect(r).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'Turn the OpenAI-compatible providers plugin on in Settings to test a connection.' },
    });
    expect(app.plugins.get('openai_compatible')).toMatchObject({ state: 'deactivated', pid: null });
    expect(server.requests).toHaveLength(0);
  } finally {
    await app.plugins.setState('openai_compatible', true);
  }
});

test('a test asked for while the app is still starting waits for the plugin instead of failing', async () => {
  const fresh = build();
  try {
    server.setScript({ kind: 'json', body: { data: [{ id: 'early' }] } });
    expect(fresh.app.plugins.get('openai_compatible').state).not.toBe('active');
    expect(await testConnection({ baseUrl: `${server.url}/v1` }, fresh)).toEqual({ ok: true, models: ['early'], message: 'Connected: 1 model available.' });
  } finally {
    await fresh.close();
  }
});
