// Several accounts per provider over the API: a new connection under a name of its own, changed by its id,
// addressed by `/model account/model` (its id or its name), with hostile ids, names and keys refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ModelList } from '../../src/shared/api/index.ts';
import { messageText } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { openAiStream, type Script, startProviderServer } from '../fixtures/provider-server.ts';

/** An allowance that allows every call: only its listing is looked at. */
const check = async () => ({ allowed: true }) as const;

let t: AppUnderTest;

beforeEach(() => {
  t = openApp({ prefix: 'amber-accounts-api-', app: (dir) => ({ home: dir }) });
});

afterEach(() => t.close());

const save = (input: Record<string, unknown>) =>
  t.result<{ accountId: string }>('providers.save', { providerId: 'custom', flavor: 'custom', model: 'm', ...input });
const keyFile = () => {
  try {
    return readFileSync(join(t.dataDir, 'secrets.json'), 'utf8');
  } catch {
    return '';
  }
};

test('a named connection is a new account; its id comes back, and changing it by id keeps the other', async () => {
  const first = await t.call<{ accountId: string }>('providers.save', {
    providerId: 'custom',
    flavor: 'custom',
    name: 'vLLM box',
    baseUrl: 'http://127.0.0.1:8000/v1',
    apiKey: 'k1',
    model: 'qwen',
  });
  const second = await t.call<{ accountId: string }>('providers.save', {
    providerId: 'custom',
    flavor: 'custom',
    name: 'llama.cpp',
    baseUrl: 'http://127.0.0.1:8080/v1',
    apiKey: 'k2',
    model: 'gemma',
  });
  expect([first.accountId, second.accountId]).toEqual(['vllm-box', 'llama-cpp']);
  await t.call('providers.save', {
    providerId: 'custom',
    flavor: 'custom',
    accountId: 'vllm-box',
    name: 'GPU box',
    baseUrl: 'http://127.0.0.1:8001/v1',
    model: 'qwen',
  });
  const listed = await t.call<{ id: string; name: string; baseUrl: string; hasKey: boolean }[]>('providers.connections');
  expect(listed.map((c) => [c.id, c.name, c.baseUrl, c.hasKey])).toEqual([
    ['llama-cpp', 'llama.cpp', 'http://127.0.0.1:8080/v1', true],
    // Same origin's host and scheme but another port: the key is not sent there, so it was removed.
    ['vllm-box', 'GPU box', 'http://127.0.0.1:8001/v1', false],
  ]);
});

test('/model account/model addresses an account by its id or its name; a model id with slashes stays whole', async () => {
  await t.call('providers.save', { providerId: 'custom', flavor: 'custom', name: 'vLLM box', baseUrl: 'http://127.0.0.1:8000/v1', model: 'org/qwen' });
  await t.call('providers.save', { providerId: 'custom', flavor: 'custom', name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1', model: 'gemma' });
  // Saving restarted the OpenAI-compatible plugin: it offers both accounts under their ids.
  expect(
    t.app.plugins.registries.providers
      .list()
      .map((p) => p.id)
      .sort(),
  ).toEqual(['llama-cpp', 'vllm-box']);
  const s = t.app.sessions.create({ cwd: null });
  const run = async (input: string) => (await t.call<{ result: { kind: string; text: string } }>('commands.run', { sessionId: s.id, input })).result;
  expect((await run('/model vLLM box/org/qwen')).text).toContain('vllm-box/org/qwen');
  expect(t.app.sessions.branchState(s.id).model).toEqual({ provider: 'vllm-box', modelId: 'org/qwen' });
  expect((await run('/model llama-cpp/gemma')).text).toContain('llama-cpp/gemma');
  expect(t.app.sessions.branchState(s.id).model).toEqual({ provider: 'llama-cpp', modelId: 'gemma' });
  expect(await run('/model nobody/gemma')).toMatchObject({ kind: 'error' });
});

test('hostile: an id with a slash, an unknown account with a key, and duplicate names are refused and store nothing', async () => {
  await save({ name: 'Box', baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'k-box' });
  const before = await t.call('providers.connections');
  const slash = await save({ accountId: 'box/../x', baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'sk-slash' });
  expect(slash).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  const ghost = await save({ accountId: 'ghost', baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'sk-ghost' });
  expect(ghost).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('no saved connection "ghost"') } });
  const twin = await save({ name: 'bOX', baseUrl: 'http://127.0.0.1:9000/v1', apiKey: 'sk-twin' });
  expect(twin).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('already a connection named "Box"') } });
  const slashName = await save({ name: 'a/b', baseUrl: 'http://127.0.0.1:9000/v1', apiKey: 'sk-slash-name' });
  expect(slashName).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(await save({ name: 'x'.repeat(201), baseUrl: 'http://127.0.0.1:9000/v1' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(await t.call('providers.connections')).toEqual(before);
  for (const key of ['sk-slash', 'sk-ghost', 'sk-twin', 'sk-slash-name']) expect(keyFile()).not.toContain(key);
  expect(await t.refused('providers.remove', { id: 'a/b' })).toMatchObject({ code: 'invalid_input' });
  expect(await t.refused('providers.testConnection', { id: 'ghost' })).toMatchObject({ code: 'not_found' });
});

test('wallets and allowances name the saved account their provider id is, and keep the id where none is saved', async () => {
  await t.call('providers.save', {
    providerId: 'openrouter',
    flavor: 'openrouter',
    name: 'OpenRouter work',
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'm',
  });
  const { wallets, allowances } = t.app.plugins.registries;
  const state = { balance: 12.5, currency: 'USD' };
  wallets.register('wallet', 'w1', { id: 'w1', provider: 'openrouter-work', state, refresh: async () => state });
  wallets.register('wallet', 'w2', { id: 'w2', provider: 'deepseek', state, refresh: async () => state });
  allowances.register('budget', 'a1', { id: 'a1', scope: 'openrouter-work', limit: 10, unit: 'usd', spent: 1, check });
  allowances.register('budget', 'a2', { id: 'a2', scope: '*', limit: 10, unit: 'usd', spent: 1, check });
  const listed = await t.call<{ wallets: { id: string; provider: string; account?: string }[] }>('wallets.list');
  expect(listed.wallets.map((w) => [w.id, w.provider, w.account])).toEqual([
    ['w1', 'openrouter-work', 'OpenRouter work'],
    ['w2', 'deepseek', undefined],
  ]);
  const views = await t.call<{ id: string; scope: string; account?: string }[]>('allowances.list');
  expect(views.map((a) => [a.id, a.scope, a.account])).toEqual([
    ['a1', 'openrouter-work', 'OpenRouter work'],
    ['a2', '*', undefined],
  ]);
  const heard = t.events.filter((e) => e.event === 'allowances.changed').at(-1)?.payload as { allowances: { account?: string }[] };
  expect(heard.allowances.map((a) => a.account)).toEqual(['OpenRouter work', undefined]);
});

/** A loopback OpenAI-compatible server's script: it lists one model, `m`, and answers every chat with `text`. */
const reply =
  (text: string): Script =>
  (req) =>
    req.method === 'GET' ? { kind: 'json', body: { object: 'list', data: [{ id: 'm' }] } } : openAiStream({ text: [text] });

test('each reply records the account it came from; its message still names the kind of server, alike for both', async () => {
  const vllm = await startProviderServer({ script: reply('From the vLLM box.') });
  const llama = await startProviderServer({ script: reply('From llama.cpp.') });
  try {
    await t.call('providers.save', { providerId: 'custom', flavor: 'custom', name: 'vLLM box', baseUrl: `${vllm.url}/v1`, model: 'm' });
    await t.call('providers.save', { providerId: 'custom', flavor: 'custom', name: 'llama.cpp', baseUrl: `${llama.url}/v1`, model: 'm' });
    const s = t.app.sessions.create({ cwd: null });
    for (const account of ['vllm-box', 'llama-cpp']) {
      await t.call('chat.setModel', { sessionId: s.id, provider: account, modelId: 'm' });
      await t.app.agent.prompt(s.id, `Hello ${account}`);
    }
    const replies = t.app.sessions
      .path(s.id)
      .filter((e) => e.type === 'message' && e.message.role === 'assistant')
      .map((e) => e.type === 'message' && [e.accountId, e.message.provider, e.message.stopReason, messageText(e.message)]);
    expect(replies).toEqual([
      ['vllm-box', 'custom', 'stop', 'From the vLLM box.'],
      ['llama-cpp', 'custom', 'stop', 'From llama.cpp.'],
    ]);
  } finally {
    await vllm.close();
    await llama.close();
  }
});

test('models.list answers with no conversation: the same models as a conversation lists, grouped by account under its name', async () => {
  await t.call('providers.save', { providerId: 'custom', flavor: 'custom', name: 'vLLM box', baseUrl: 'http://127.0.0.1:8000/v1', model: 'org/qwen' });
  await t.call('providers.save', { providerId: 'custom', flavor: 'custom', name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1', model: 'gemma' });
  const listed = await t.call<ModelList>('models.list');
  expect(listed.accounts.map((a) => [a.id, a.name, a.models.map((m) => `${m.provider}/${m.modelId}`)])).toEqual([
    ['vllm-box', 'vLLM box', ['vllm-box/org/qwen']],
    ['llama-cpp', 'llama.cpp', ['llama-cpp/gemma']],
  ]);
  expect(listed.default).toEqual({ provider: 'llama-cpp', modelId: 'gemma' });
  const s = t.app.sessions.create({ cwd: null });
  const inConversation = await t.call<{ models: ModelList['accounts'][number]['models'] }>('chat.models', { sessionId: s.id });
  expect(listed.accounts.flatMap((a) => a.models)).toEqual(inConversation.models);
});

test('hostile: models.list takes nothing — a conversation, a filter or junk is refused as invalid input', async () => {
  for (const input of [{ sessionId: 'x' }, { account: 'vllm-box' }, [], 'models', { ['__proto__']: { polluted: true } }]) {
    expect(await t.refused('models.list', input)).toMatchObject({ code: 'invalid_input' });
  }
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
});
