import { expect, test } from 'vitest';
import type { ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import { AllowanceRegistry, ProviderRegistry } from '../plugins/index.ts';
import { EARLY_CHECK_MAX_AGE_MS, EarlyAllowanceChecks, guardWithAllowances, pluginProviderResolver } from './plugin-provider-resolver.ts';

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
  await expect(Promise.resolve().then(() => resolve({ provider: 'gone', modelId: 'x' }))).rejects.toThrow(
    /No provider 'gone' is available \(available: local\)\. Set it up in Settings/,
  );
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

/** A registry with one allowance whose answers the test sets, counting the checks. */
function counted(answer: () => { allowed: boolean; reason?: string }) {
  const allowances = new AllowanceRegistry();
  const seen = { checks: 0 };
  allowances.register('budget', 'daily', {
    id: 'daily',
    scope: '*',
    limit: 1,
    unit: 'USD',
    spent: 0,
    check: async () => {
      seen.checks++;
      return answer();
    },
  });
  return { allowances, seen };
}

test('a decision asked for while the tools run is what the next call uses: it waits for no check of its own', async () => {
  const providers = new ProviderRegistry();
  providers.register('p', 'local', { id: 'local', flavor: 'ollama', presets: [], models: [model], stream: echo });
  const { allowances, seen } = counted(() => ({ allowed: true }));
  const resolve = pluginProviderResolver(providers, allowances);
  const first = await resolve({ provider: 'local', modelId: 'm1' });
  first.prepare!();
  expect(seen.checks).toBe(1);
  // The next turn resolves the provider again and calls it.
  const { stream } = await resolve({ provider: 'local', modelId: 'm1' });
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([{ type: 'done' }]);
  expect(seen.checks).toBe(1);
  // Used once: the call after it is checked again.
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([{ type: 'done' }]);
  expect(seen.checks).toBe(2);
});

test('a refusal asked for early still ends the call before anything reaches the provider', async () => {
  const providers = new ProviderRegistry();
  providers.register('p', 'local', { id: 'local', flavor: 'ollama', presets: [], models: [model], stream: echo });
  const { allowances } = counted(() => ({ allowed: false, reason: 'The daily budget of $1.00 is used up.' }));
  const resolve = pluginProviderResolver(providers, allowances);
  (await resolve({ provider: 'local', modelId: 'm1' })).prepare!();
  const { stream } = await resolve({ provider: 'local', modelId: 'm1' });
  calls = 0;
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([
    { type: 'error', kind: 'blocked', message: { errorMessage: 'The daily budget of $1.00 is used up.' } },
  ]);
  expect(calls).toBe(0);
});

test('a decision asked for early is not used once it is too old or an allowance changed since: the call is checked again', async () => {
  let allowed = true;
  const { allowances, seen } = counted(() => (allowed ? { allowed: true } : { allowed: false, reason: 'Used up.' }));
  let now = 0;
  const early = new EarlyAllowanceChecks(allowances, () => now);
  const stream = guardWithAllowances('local', echo, allowances, early);
  calls = 0;

  early.ask('local', 'm1');
  allowed = false; // spend that arrived after the early check
  now = EARLY_CHECK_MAX_AGE_MS + 1;
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([{ type: 'error', kind: 'blocked' }]);
  expect(seen.checks).toBe(2);

  allowed = true;
  early.ask('local', 'm1');
  await Promise.resolve();
  allowed = false;
  // A limit set meanwhile (the allowance registered again) makes the early answer stale.
  allowances.register('budget', 'weekly', { id: 'weekly', scope: '*', limit: 1, unit: 'USD', spent: 0, check: async () => ({ allowed: true }) });
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([{ type: 'error', kind: 'blocked' }]);
  expect(calls).toBe(0);
  // For another model, a decision asked early is not taken either.
  early.ask('local', 'other');
  expect(await collect(stream(request('m1'), new AbortController().signal))).toMatchObject([{ type: 'error', kind: 'blocked' }]);
});
