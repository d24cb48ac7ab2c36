import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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
  expect(accounts.pluginConfig('budget')).toEqual({ accounts: [] });
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
