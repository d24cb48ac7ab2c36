import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { listAnthropicModels } from '../../src/plugins/anthropic/index.ts';
import { listOpenAiCompatibleModels } from '../../src/plugins/openai-compatible/index.ts';
import { jsonError, jsonFixture, startProviderServer, type ProviderServer } from '../fixtures/provider-server.ts';

let server: ProviderServer;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await server.close();
});

describe('model lists and connection tests', () => {
  test('Ollama models come from /v1/models with local defaults for context and price', async () => {
    server.setScript(jsonFixture('openai/ollama-models.json'));
    const result = await listOpenAiCompatibleModels({ baseUrl: `${server.url}/v1`, flavor: 'ollama' });
    expect(result).toEqual({
      ok: true,
      models: [
        { id: 'llama3.2:3b', name: 'llama3.2:3b', contextWindow: 8192, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
        { id: 'qwen3:4b', name: 'qwen3:4b', contextWindow: 8192, reasoning: true, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      ],
    });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  test('OpenRouter prices per token become dollars per million tokens', async () => {
    server.setScript(jsonFixture('openai/openrouter-models.json'));
    const result = await listOpenAiCompatibleModels({ baseUrl: `${server.url}/api/v1`, flavor: 'openrouter', apiKey: 'sk-or-test-1234' });
    if (!result.ok) throw new Error(result.message);
    const [sonnet, llama] = result.models;
    expect(sonnet).toMatchObject({ id: 'anthropic/claude-sonnet-4', contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true });
    expect(sonnet.pricing.input).toBeCloseTo(3, 9);
    expect(sonnet.pricing.output).toBeCloseTo(15, 9);
    expect(sonnet.pricing.cacheRead).toBeCloseTo(0.3, 9);
    expect(llama).toMatchObject({ contextWindow: 131_072, reasoning: false });
    expect(llama.maxOutputTokens).toBeUndefined();
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-or-test-1234');
  });

  test('a failed connection test says why, without the key', async () => {
    server.setScript(jsonError(401, 'Invalid API key sk-bad-key-99'));
    const result = await listOpenAiCompatibleModels({ baseUrl: `${server.url}/v1`, flavor: 'groq', apiKey: 'sk-bad-key-99' });
    expect(result).toMatchObject({ ok: false, kind: 'auth' });
    expect(JSON.stringify(result)).not.toContain('sk-bad-key-99');
  });

  test('a base URL that serves no model list is explained', async () => {
    server.setScript({ kind: 'json', body: { hello: 'world' } });
    const result = await listOpenAiCompatibleModels({ baseUrl: server.url, flavor: 'lmstudio' });
    expect(result).toMatchObject({ ok: false, kind: 'bad_stream' });
    if (!result.ok) expect(result.message).toMatch(/without a model list/);
  });

  test('Anthropic models from /v1/models with a 200k default context and thinking support by family', async () => {
    server.setScript(jsonFixture('anthropic/models.json'));
    const result = await listAnthropicModels({ baseUrl: server.url, apiKey: 'sk-ant-x-1234' });
    if (!result.ok) throw new Error(result.message);
    expect(result.models.map((m) => [m.id, m.name, m.contextWindow, m.reasoning])).toEqual([
      ['claude-sonnet-4-20250514', 'Claude Sonnet 4', 200_000, true],
      ['claude-3-5-haiku-20241022', 'Claude Haiku 3.5', 200_000, false],
    ]);
    expect(server.requests[0].path).toBe('/v1/models?limit=1000');
    expect(server.requests[0].headers['x-api-key']).toBe('sk-ant-x-1234');
  });
});
