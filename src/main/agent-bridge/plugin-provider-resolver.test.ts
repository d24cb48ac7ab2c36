import { expect, test } from 'vitest';
import type { ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import { AllowanceRegistry } from '../plugins/allowance-registry.ts';
import { ProviderRegistry } from '../plugins/provider-registry.ts';
import { pluginProviderResolver } from './plugin-provider-resolver.ts';

const model = { id: 'm1', contextWindow: 1000, reasoning: false, pricing: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } };
let calls = 0;
const echo: StreamFn = async function* (request) {
  calls++;
  yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: `hi from ${request.model.id}` }], stopReason: 'stop' } };
};
const request = (id: string): ProviderRequest => ({ model: { ...model, id }, systemPrompt: '', messages: [], tools: [] });

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

test('a model resolves to the provider plugin that serves it; an unlisted model gets the provider defaults', async () => {
  const providers = new ProviderRegistry();
  providers.register('p', 'local', { id: 'local', flavor: 'ollama', presets: [], models: [model], stream: echo });
  const resolve = pluginProviderResolver(providers, new AllowanceRegistry());
  const listed = await resolve({ provider: 'local', modelId: 'm1' });
  expect(listed.model).toEqual(model);
  const typed = await resolve({ provider: 'local', modelId: 'hand-typed' });
  expect(typed.model).toMatchObject({ id: 'hand-typed', contextWindow: 1000 });
  expect(await collect(typed.stream(request('hand-typed'), new AbortController().signal))).toMatchObject([{ type: 'done' }]);
});

test('a provider that is not there is a sentence that says what to do', async () => {
  const providers = new ProviderRegistry();
  providers.register('p', 'local', { id: 'local', flavor: 'ollama', presets: [], models: [model], stream: echo });
  const resolve = pluginProviderResolver(providers, new AllowanceRegistry());
  await expect(Promise.resolve().then(() => resolve({ provider: 'gone', modelId: 'x' }))).rejects.toThrow(/No provider 'gone' is available \(available: local\)\. Set it up in Settings/);
});

test('an allowance that refuses blocks the call before it reaches the provider', async () => {
  const providers = new ProviderRegistry();
  providers.register('p', 'local', { id: 'local', flavor: 'ollama', presets: [], models: [model], stream: echo });
  const allowances = new AllowanceRegistry();
  let limit = 0;
  allowances.register('budget', 'daily', {
    id: 'daily',
    scope: '*',
    limit: 1,
    unit: 'USD',
    spent: 0,
    check: async () => (limit > 0 ? { allowed: true } : { allowed: false, reason: 'The daily budget of $1.00 is used up.' }),
  });
  const resolve = pluginProviderResolver(providers, allowances);
  const { stream } = await resolve({ provider: 'local', modelId: 'm1' });
  calls = 0;
  const blocked = await collect(stream(request('m1'), new AbortController().signal));
  expect(blocked).toMatchObject([{ type: 'error', kind: 'blocked', message: { stopReason: 'error', errorMessage: 'The daily budget of $1.00 is used up.' } }]);
  expect(calls).toBe(0);
  limit = 1;
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([{ type: 'done' }]);
  expect(calls).toBe(1);
});

test('an allowance near its limit lets the call through with a notice for the user', async () => {
  const providers = new ProviderRegistry();
  providers.register('p', 'local', { id: 'local', flavor: 'ollama', presets: [], models: [model], stream: echo });
  const allowances = new AllowanceRegistry();
  allowances.register('budget', 'daily', {
    id: 'daily',
    scope: '*',
    limit: 5,
    unit: 'USD',
    spent: 4,
    check: async () => ({ allowed: true, reason: 'The daily budget is 80% used ($4.00 of $5.00).' }),
  });
  const { stream } = await pluginProviderResolver(providers, allowances)({ provider: 'local', modelId: 'm1' });
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([
    { type: 'notice', message: 'The daily budget is 80% used ($4.00 of $5.00).' },
    { type: 'done' },
  ]);
});
