import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { ProviderAccounts } from './provider-accounts.ts';
import { FileSecretStore } from './secret-store.ts';

let dir: string;
let store: SessionStore;
let warnings: string[];
let accounts: ProviderAccounts;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-accounts-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  warnings = [];
  accounts = new ProviderAccounts(new SettingsService({ store }), new FileSecretStore(join(dir, 'secrets.json'), { warn: (m) => warnings.push(m) }));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('saving an account sets the default model and keeps the key out of the database', () => {
  expect(accounts.isConfigured()).toBe(false);
  const saved = accounts.save({ baseUrl: 'https://openrouter.ai/api/v1/', apiKey: 'sk-or-secret', model: 'openai/gpt-4o' });
  expect(saved.keyCleared).toBe(false);
  expect(saved.account).toMatchObject({ id: 'openrouter', dialect: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1' });
  expect(accounts.defaultModel()).toEqual({ provider: 'openrouter', modelId: 'openai/gpt-4o' });
  store.close(); // checkpoints the WAL into the file
  expect(readFileSync(join(dir, 'amber.db')).includes('sk-or-secret')).toBe(false);
  expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('unencrypted');
  store = SessionStore.open(join(dir, 'amber.db'));
});

test('a provider plugin reads its own dialect accounts with their keys', () => {
  accounts.save({ presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' });
  accounts.save({ presetId: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant', model: 'claude-sonnet-4-5' });
  expect(accounts.pluginConfig('openai_compatible')).toEqual({
    accounts: [
      expect.objectContaining({
        id: 'ollama',
        flavor: 'ollama',
        apiKey: undefined,
        models: [expect.objectContaining({ id: 'llama3.2', contextWindow: 8192 })],
      }),
    ],
  });
  expect(accounts.pluginConfig('anthropic')).toEqual({ accounts: [expect.objectContaining({ id: 'anthropic', flavor: 'anthropic', apiKey: 'sk-ant' })] });
  expect(accounts.pluginConfig('budget')).toEqual({});
});

test('the wallet plugin reads the accounts with a balance endpoint, each with its own key, and no other account', () => {
  accounts.save({ presetId: 'openrouter', name: 'Work', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-work', model: 'm' });
  accounts.save({ presetId: 'openrouter', name: 'Home', baseUrl: 'https://openrouter.ai/api/v1', model: 'm' });
  accounts.save({ presetId: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai', model: 'm' });
  expect(accounts.pluginConfig('wallet')).toEqual({
    providerAccounts: [
      { id: 'work', kind: 'openrouter', name: 'Work', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-work' },
      { id: 'home', kind: 'openrouter', name: 'Home', baseUrl: 'https://openrouter.ai/api/v1' },
    ],
  });
});

test('saving again puts the new model first and keeps the others; bad input is refused', () => {
  accounts.save({ presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'a' });
  accounts.save({ presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'b' });
  expect(accounts.list()[0]!.models).toEqual(['b', 'a']);
  expect(() => accounts.save({ baseUrl: 'localhost:11434', model: 'x' })).toThrow(/must start with http/);
  expect(() => accounts.save({ baseUrl: 'http://x', model: '  ' })).toThrow(/Choose a model/);
  accounts.remove('ollama');
  expect(accounts.isConfigured()).toBe(false);
});

test('moving an account to another origin without a new key clears its stored key and says so', () => {
  accounts.save({ presetId: 'custom', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-for-example', model: 'm' });
  // Same origin, another path: the key stays.
  expect(accounts.save({ presetId: 'custom', baseUrl: 'https://api.example.com/v2', model: 'm' }).keyCleared).toBe(false);
  expect(accounts.pluginConfig('openai_compatible')).toEqual({ accounts: [expect.objectContaining({ apiKey: 'sk-for-example' })] });
  // Another host, scheme or port: the key is never sent there.
  for (const baseUrl of ['https://attacker.example/v1', 'http://api.example.com/v1', 'https://api.example.com:8443/v1']) {
    accounts.save({ presetId: 'custom', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-for-example', model: 'm' });
    expect(accounts.save({ presetId: 'custom', baseUrl, model: 'm' }).keyCleared).toBe(true);
    expect(accounts.pluginConfig('openai_compatible')).toEqual({ accounts: [expect.objectContaining({ baseUrl, apiKey: undefined })] });
  }
  // Nothing stored, nothing cleared; a new key given with the move is kept.
  expect(accounts.save({ presetId: 'custom', baseUrl: 'https://other.example/v1', model: 'm' }).keyCleared).toBe(false);
  expect(accounts.save({ presetId: 'custom', baseUrl: 'https://third.example/v1', apiKey: 'sk-third', model: 'm' }).keyCleared).toBe(false);
  expect(accounts.pluginConfig('openai_compatible')).toEqual({ accounts: [expect.objectContaining({ apiKey: 'sk-third' })] });
});

test('every model the server listed at setup is offered, the chosen one first', () => {
  accounts.save({ presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'large', listed: ['small', 'large', ' medium '] });
  expect(accounts.list()[0]!.models).toEqual(['large', 'small', 'medium']);
  expect(accounts.defaultModel()).toEqual({ provider: 'custom', modelId: 'large' });
});

test("a refresh replaces an account's models with what its server lists now, keeping the default model", () => {
  accounts.save({ presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'old-default', listed: ['gone'] });
  expect(accounts.setModels('custom', ['new-a', 'new-b'])).toBe(true);
  expect(accounts.list()[0]!.models).toEqual(['old-default', 'new-a', 'new-b']);
  // The same list again changes nothing; an account that is gone or an empty list is left alone.
  expect(accounts.setModels('custom', ['new-a', 'new-b'])).toBe(false);
  expect(accounts.setModels('custom', [])).toBe(false);
  expect(accounts.setModels('nobody', ['x'])).toBe(false);
});

test('removing the account new conversations use moves them to the next account, and takes its key; the last one leaves none', () => {
  accounts.save({ presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama' });
  accounts.save({ presetId: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-x', model: 'openai/gpt-4o' });
  expect(accounts.defaultModel()).toEqual({ provider: 'openrouter', modelId: 'openai/gpt-4o' });
  expect(accounts.apiKey('openrouter')).toBe('sk-or-x');
  accounts.remove('openrouter');
  expect(accounts.apiKey('openrouter')).toBeNull();
  expect(accounts.defaultModel()).toEqual({ provider: 'ollama', modelId: 'llama' });
  // Removing another account leaves the default alone.
  accounts.save({ presetId: 'groq', baseUrl: 'https://api.groq.com/openai/v1', model: 'g' });
  accounts.save({ presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama' });
  accounts.remove('groq');
  expect(accounts.defaultModel()).toEqual({ provider: 'ollama', modelId: 'llama' });
  accounts.remove('ollama');
  expect(accounts.defaultModel()).toBeNull();
});

test('two accounts of one preset live side by side, each with its own id, name and key', () => {
  const box = accounts.save({ presetId: 'custom', name: 'vLLM box', baseUrl: 'http://10.0.0.5:8000/v1', apiKey: 'key-vllm', model: 'qwen3' }).account;
  const laptop = accounts.save({ presetId: 'custom', name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'key-llama', model: 'gemma' }).account;
  expect(box).toMatchObject({ id: 'vllm-box', name: 'vLLM box', presetId: 'custom' });
  expect(laptop).toMatchObject({ id: 'llama-cpp', name: 'llama.cpp' });
  expect(accounts.apiKey('vllm-box')).toBe('key-vllm');
  expect(accounts.apiKey('llama-cpp')).toBe('key-llama');
  const config = accounts.pluginConfig('openai_compatible').accounts as { id: string; label: string; apiKey?: string; baseUrl: string }[];
  expect(config.map((a) => [a.id, a.label, a.apiKey, a.baseUrl])).toEqual([
    ['vllm-box', 'vLLM box', 'key-vllm', 'http://10.0.0.5:8000/v1'],
    ['llama-cpp', 'llama.cpp', 'key-llama', 'http://127.0.0.1:8080/v1'],
  ]);
  // Changing one by its id leaves the other as it was.
  accounts.save({ accountId: 'vllm-box', name: 'GPU box', baseUrl: 'http://10.0.0.5:8000/v1', model: 'qwen3' });
  expect(accounts.list().map((a) => [a.id, a.name])).toEqual([
    ['llama-cpp', 'llama.cpp'],
    ['vllm-box', 'GPU box'],
  ]);
  expect(accounts.apiKey('vllm-box')).toBe('key-vllm');
  accounts.remove('vllm-box');
  expect(accounts.apiKey('vllm-box')).toBeNull();
  expect(accounts.apiKey('llama-cpp')).toBe('key-llama');
});

test('a second OpenAI key is a second account; the first keeps the preset id and saving without a name still changes it', () => {
  accounts.save({ presetId: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-work', model: 'gpt-4o' });
  const second = accounts.save({ presetId: 'openai', name: 'OpenAI personal', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-home', model: 'gpt-4o' });
  expect(second.account.id).toBe('openai-personal');
  accounts.save({ presetId: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-work-2', model: 'gpt-4o-mini' });
  expect(accounts.list().map((a) => [a.id, a.name])).toEqual([
    ['openai-personal', 'OpenAI personal'],
    ['openai', 'OpenAI'],
  ]);
  expect(accounts.apiKey('openai')).toBe('sk-work-2');
  expect(accounts.apiKey('openai-personal')).toBe('sk-home');
});

test('hostile: a duplicate name (any case), a name with a slash, and a key for an unknown account are refused and store nothing', () => {
  accounts.save({ presetId: 'custom', name: 'Box', baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'k-box', model: 'm' });
  const before = accounts.list();
  expect(() => accounts.save({ presetId: 'custom', name: 'BOX', baseUrl: 'http://127.0.0.1:9000/v1', apiKey: 'k', model: 'm' })).toThrow(
    /already a connection named "Box"/,
  );
  expect(() => accounts.save({ presetId: 'custom', name: 'a/b', baseUrl: 'http://127.0.0.1:9000/v1', model: 'm' })).toThrow(/without a slash/);
  expect(() => accounts.save({ presetId: 'custom', name: '   ', baseUrl: 'http://127.0.0.1:9000/v1', model: 'm' })).toThrow(/name of 1 to 60/);
  expect(() => accounts.save({ accountId: 'ghost', baseUrl: 'http://127.0.0.1:9000/v1', apiKey: 'sk-ghost', model: 'm' })).toThrow(
    /no saved connection "ghost"/,
  );
  expect(accounts.list()).toEqual(before);
  expect(accounts.apiKey('ghost')).toBeNull();
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8').includes('sk-ghost')).toBe(false);
  // A name that would make a taken id gets a number; a name another account has after a rename is refused.
  expect(accounts.save({ presetId: 'custom', name: 'box!', baseUrl: 'http://127.0.0.1:9000/v1', model: 'm' }).account.id).toBe('box-2');
  expect(() => accounts.save({ accountId: 'box-2', name: 'box', baseUrl: 'http://127.0.0.1:9000/v1', model: 'm' })).toThrow(/already a connection named/);
});

test('accounts and keys stored before several accounts per provider keep their ids, names, keys and default model', () => {
  // The settings row and the key file exactly as the previous version wrote them.
  store.setSetting(
    'providers.accounts',
    JSON.stringify([
      {
        id: 'openai',
        presetId: 'openai',
        dialect: 'openai-compatible',
        name: 'OpenAI',
        baseUrl: 'https://api.openai.com/v1',
        models: ['gpt-4o'],
        contextWindow: 128000,
      },
      {
        id: 'custom',
        presetId: 'custom',
        dialect: 'openai-compatible',
        name: 'Other OpenAI-compatible server',
        baseUrl: 'http://127.0.0.1:8000/v1',
        models: ['m'],
        contextWindow: 32768,
      },
    ]),
  );
  store.setSetting('providers.defaultModel', JSON.stringify({ provider: 'custom', modelId: 'm' }));
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ 'provider.openai.apiKey': 'sk-old', 'provider.custom.apiKey': 'k-old' }), { mode: 0o600 });
  const reopened = new ProviderAccounts(new SettingsService({ store }), new FileSecretStore(join(dir, 'secrets.json'), { warn: () => {} }));
  expect(reopened.list().map((a) => [a.id, a.name])).toEqual([
    ['openai', 'OpenAI'],
    ['custom', 'Other OpenAI-compatible server'],
  ]);
  expect(reopened.apiKey('openai')).toBe('sk-old');
  expect(reopened.defaultModel()).toEqual({ provider: 'custom', modelId: 'm' });
  // Saving the preset again, as the first-run screen does, still changes that same account.
  reopened.save({ presetId: 'custom', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm2' });
  expect(reopened.list().map((a) => a.id)).toEqual(['openai', 'custom']);
  expect(reopened.apiKey('custom')).toBe('k-old');
});
