import { expect, test } from 'vitest';
import type { ProviderProbeRequest, ProviderProbeResult } from '../../shared/plugins/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { type ConnectionTest, DETECT_TIMEOUT_MS, providerPresets, testConnection } from './provider-setup.ts';

test("a local server that answers its plugin's test is marked detected and offered first; remote presets are not asked", async () => {
  const asked: { endpoint: ConnectionTest; timeoutMs: number }[] = [];
  const presets = await providerPresets(async (endpoint, timeoutMs) => {
    asked.push({ endpoint, timeoutMs });
    return { ok: endpoint.flavor === 'lmstudio', models: [], message: '' };
  });
  expect(presets[0]).toMatchObject({ id: 'lmstudio', detected: true });
  expect(presets.filter((p) => p.detected).map((p) => p.id)).toEqual(['lmstudio']);
  expect(asked.map((a) => a.endpoint.flavor).sort()).toEqual(['lmstudio', 'ollama']);
  expect(asked.every((a) => a.timeoutMs === DETECT_TIMEOUT_MS && a.endpoint.dialect === 'openai-compatible')).toBe(true);
});

test('a test that cannot run (the plugin is off) leaves the presets undetected instead of failing the list', async () => {
  const presets = await providerPresets(() => Promise.reject(new AmberError('unavailable', 'Turn the plugin on.')));
  expect(presets.length).toBeGreaterThan(0);
  expect(presets.some((p) => p.detected)).toBe(false);
});

/** An App whose plugin runtime records the probes it is asked for. */
function recordingApp(calls: { id: string; request: ProviderProbeRequest; timeoutMs?: number }[]): App {
  const probe = async (id: string, request: ProviderProbeRequest, options: { timeoutMs?: number } = {}): Promise<ProviderProbeResult> => {
    calls.push({ id, request, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
    return { ok: true, models: [], message: 'Connected.' };
  };
  return { plugins: { probe } } as unknown as App;
}

test('the test goes to the plugin of the dialect, which the flavor decides when no dialect is given', async () => {
  const calls: { id: string; request: ProviderProbeRequest; timeoutMs?: number }[] = [];
  const app = recordingApp(calls);
  await testConnection(app, { baseUrl: 'https://api.anthropic.com', apiKey: 'k', dialect: 'anthropic' }, 100);
  await testConnection(app, { baseUrl: 'https://api.anthropic.com', flavor: 'anthropic' });
  await testConnection(app, { baseUrl: 'http://localhost:11434/v1', flavor: 'ollama', dialect: 'openai-compatible' });
  await testConnection(app, { baseUrl: 'http://127.0.0.1:8000/v1', dialect: 'something-else' });
  expect(calls).toEqual([
    { id: 'anthropic', request: { flavor: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'k' }, timeoutMs: 100 },
    { id: 'anthropic', request: { flavor: 'anthropic', baseUrl: 'https://api.anthropic.com' }, timeoutMs: 6000 },
    { id: 'openai_compatible', request: { flavor: 'ollama', baseUrl: 'http://localhost:11434/v1' }, timeoutMs: 6000 },
    { id: 'openai_compatible', request: { flavor: 'custom', baseUrl: 'http://127.0.0.1:8000/v1' }, timeoutMs: 6000 },
  ]);
});
