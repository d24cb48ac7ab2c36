import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { PluginSecrets } from './plugin-secrets.ts';
import { FileSecretStore } from './secret-store.ts';

const OR_KEY = 'sk-or-v1-wallet-secret-0001';
const DS_KEY = 'sk-deepseek-wallet-secret-0002';

let dir: string;
let store: SessionStore;
let secrets: FileSecretStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-plugin-secrets-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  secrets = new FileSecretStore(join(dir, 'secrets.json'), { warn: () => {} });
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = (id: string): unknown => JSON.parse(store.getSetting(`plugin.${id}.config`) ?? 'null');

/** The bytes of the database file once the WAL is checkpointed into it. */
function databaseBytes(): Buffer {
  store.close();
  const bytes = readFileSync(join(dir, 'amber.db'));
  store = SessionStore.open(join(dir, 'amber.db'));
  return bytes;
}

test('wallet keys found in the settings table move to the secret store at start, and the database keeps no trace of them', () => {
  store.setSetting(
    'plugin.wallet.config',
    JSON.stringify({ openrouter: { apiKey: OR_KEY, baseUrl: 'http://127.0.0.1:9/api/v1' }, deepseek: { apiKey: DS_KEY, warnBelow: 5 }, refreshMinutes: 2 }),
  );
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  expect(plugins.migrate()).toBe(2);
  expect(stored('wallet')).toEqual({ openrouter: { baseUrl: 'http://127.0.0.1:9/api/v1' }, deepseek: { warnBelow: 5 }, refreshMinutes: 2 });
  expect(secrets.get('plugin.wallet.openrouter.apiKey')).toBe(OR_KEY);
  expect(secrets.get('plugin.wallet.deepseek.apiKey')).toBe(DS_KEY);
  const bytes = databaseBytes();
  expect(bytes.includes(OR_KEY)).toBe(false);
  expect(bytes.includes(DS_KEY)).toBe(false);
});

test('the migration is idempotent: run again it moves nothing and the keys stay usable', () => {
  store.setSetting('plugin.wallet.config', JSON.stringify({ openrouter: { apiKey: OR_KEY } }));
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  expect(plugins.migrate()).toBe(1);
  expect(plugins.migrate()).toBe(0);
  expect(new PluginSecrets(new SettingsService({ store }), secrets).migrate()).toBe(0);
  expect(plugins.config('wallet')).toEqual({ openrouter: { apiKey: OR_KEY } });
});

test('the owning plugin reads its keys merged into its config; no other plugin sees them', () => {
  store.setSetting('plugin.wallet.config', JSON.stringify({ deepseek: { apiKey: DS_KEY }, warnBelow: 3 }));
  // Another plugin whose config is shaped like the wallet's, and a provider key in the same store.
  store.setSetting('plugin.example.config', JSON.stringify({ deepseek: { baseUrl: 'http://x' } }));
  secrets.set('provider.openrouter.apiKey', 'sk-provider-key');
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.migrate();
  expect(plugins.config('wallet')).toEqual({ deepseek: { apiKey: DS_KEY }, warnBelow: 3 });
  for (const other of ['example', 'budget', 'openai_compatible', 'wallet_', 'wallet.deepseek', '__proto__', 'constructor']) {
    expect(JSON.stringify(plugins.config(other))).not.toContain(DS_KEY);
    expect(JSON.stringify(plugins.config(other))).not.toContain('sk-provider-key');
  }
  expect(plugins.config('example')).toEqual({ deepseek: { baseUrl: 'http://x' } });
});

test('a key written into the settings table later is moved out at the next read', () => {
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.migrate();
  store.setSetting('plugin.wallet.config', JSON.stringify({ openrouter: { apiKey: OR_KEY } }));
  expect(plugins.config('wallet')).toEqual({ openrouter: { apiKey: OR_KEY } });
  expect(stored('wallet')).toEqual({ openrouter: {} });
});

test('writing a config keeps its secret fields out of the database; null clears one, absent keeps it', () => {
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.write('wallet', { openrouter: { apiKey: OR_KEY, warnBelow: 2 }, deepseek: { apiKey: DS_KEY } });
  expect(stored('wallet')).toEqual({ openrouter: { warnBelow: 2 }, deepseek: {} });
  plugins.write('wallet', { openrouter: { warnBelow: 4 }, deepseek: { apiKey: null } });
  expect(plugins.config('wallet')).toEqual({ openrouter: { warnBelow: 4, apiKey: OR_KEY }, deepseek: {} });
  expect(databaseBytes().includes(OR_KEY)).toBe(false);
});

test('secret fields are data: a plugin marked with one gets the same treatment', () => {
  store.setSetting('plugin.weather.config', JSON.stringify({ token: 'wx-secret', city: 'Oslo' }));
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets, { fields: { weather: ['token'] } });
  expect(plugins.migrate()).toBe(1);
  expect(stored('weather')).toEqual({ city: 'Oslo' });
  expect(plugins.config('weather')).toEqual({ city: 'Oslo', token: 'wx-secret' });
});

test('a key file that cannot be written leaves the key where it was, warns, and does not throw', () => {
  store.setSetting('plugin.wallet.config', JSON.stringify({ openrouter: { apiKey: OR_KEY } }));
  const warnings: string[] = [];
  const broken = {
    get: () => null,
    set: () => {
      throw new Error('disk full');
    },
  };
  expect(new PluginSecrets(new SettingsService({ store }), broken, { warn: (m) => warnings.push(m) }).migrate()).toBe(0);
  expect(stored('wallet')).toEqual({ openrouter: { apiKey: OR_KEY } });
  expect(warnings[0]).toMatch(/could not move the 'wallet' plugin's keys .*disk full/);
});

test("an MCP server's environment values and headers go to the key file, keep their keys empty in the database, and come back in the plugin's config", () => {
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.write('mcp', {
    servers: {
      gh: { command: 'gh-mcp', env: { GH_TOKEN: 'ghp-secret-1' } },
      web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer tok-2' } },
    },
  });
  expect(stored('mcp')).toEqual({
    servers: { gh: { command: 'gh-mcp', env: { GH_TOKEN: '' } }, web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: '' } } },
  });
  expect(store.getSetting('plugin.mcp.config')).not.toMatch(/ghp-secret-1|tok-2/);
  expect(plugins.config('mcp')).toEqual({
    servers: {
      gh: { command: 'gh-mcp', env: { GH_TOKEN: 'ghp-secret-1' } },
      web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer tok-2' } },
    },
  });
  // Writing the config back as stored (empty values) keeps the secrets.
  plugins.write('mcp', stored('mcp') as Record<string, unknown>);
  expect(plugins.config('mcp')).toMatchObject({ servers: { gh: { env: { GH_TOKEN: 'ghp-secret-1' } } } });
});

test("forget removes a removed MCP server's values from the key file, and only paths the plugin's secret fields cover", () => {
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.write('mcp', { servers: { gh: { command: 'x', env: { GH_TOKEN: 'ghp-gone-1' } }, kept: { command: 'y', env: { K: 'kept-2' } } } });
  plugins.write('wallet', { openrouter: { apiKey: OR_KEY } });
  // A path outside the MCP plugin's secret fields, or another plugin's field, is not touched.
  plugins.forget('mcp', ['openrouter.apiKey', 'servers.kept.command', 'servers.kept.env', 'servers.kept.env.K.deeper']);
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain('kept-2');
  expect(plugins.config('wallet')).toEqual({ openrouter: { apiKey: OR_KEY } });
  plugins.forget('mcp', ['servers.gh.env.GH_TOKEN']);
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain('ghp-gone-1');
  expect(plugins.config('mcp')).toEqual({ servers: { gh: { command: 'x', env: { GH_TOKEN: '' } }, kept: { command: 'y', env: { K: 'kept-2' } } } });
});

test('MCP secrets written to the settings table by hand are moved out at start, once', () => {
  store.setSetting('plugin.mcp.config', JSON.stringify({ servers: { gh: { command: 'x', env: { A: 'one', B: 'two' } } } }));
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  expect(plugins.migrate()).toBe(2);
  expect(plugins.migrate()).toBe(0);
  expect(stored('mcp')).toEqual({ servers: { gh: { command: 'x', env: { A: '', B: '' } } } });
  expect(plugins.config('mcp')).toEqual({ servers: { gh: { command: 'x', env: { A: 'one', B: 'two' } } } });
});

test('a secret setting a manifest declares, read live, is kept out of the database and merged into its own plugin only', () => {
  let fields: Record<string, readonly string[]> = {};
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets, { fields: () => fields });
  store.setSetting('plugin.weather.config', JSON.stringify({ service: { token: 'tok-weather-0003' }, city: 'Oslo' }));
  expect(plugins.config('weather')).toEqual({ service: { token: 'tok-weather-0003' }, city: 'Oslo' });
  // The plugin is added (or its manifest now marks the field secret): the next read moves the value out.
  fields = { weather: ['service.token'] };
  expect(plugins.config('weather')).toEqual({ service: { token: 'tok-weather-0003' }, city: 'Oslo' });
  expect(stored('weather')).toEqual({ service: {}, city: 'Oslo' });
  expect(plugins.hasSecret('weather', 'service.token')).toBe(true);
  expect(plugins.hasSecret('budget', 'service.token')).toBe(false);
  expect(plugins.stored('weather')).toEqual({ service: {}, city: 'Oslo' });
  expect(JSON.stringify(plugins.config('budget'))).not.toContain('tok-weather');
  expect(databaseBytes().includes('tok-weather-0003')).toBe(false);
});

test('a key bound to a base URL is dropped when the URL changes, unless the same write gives a new key', () => {
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.write('wallet', { openrouter: { apiKey: OR_KEY, baseUrl: 'http://127.0.0.1:9/a' }, deepseek: { apiKey: DS_KEY } });
  // Another setting changes: the keys stay.
  expect(plugins.write('wallet', { openrouter: { baseUrl: 'http://127.0.0.1:9/a', warnBelow: 3 }, deepseek: {} })).toEqual([]);
  expect(plugins.config('wallet')).toMatchObject({ openrouter: { apiKey: OR_KEY }, deepseek: { apiKey: DS_KEY } });
  // The URL changes (or is set where it was the default): that account's key goes, the other stays.
  expect(plugins.write('wallet', { openrouter: { baseUrl: 'http://127.0.0.1:9/elsewhere' }, deepseek: { baseUrl: 'http://127.0.0.1:9/ds' } })).toEqual([
    'openrouter.apiKey',
    'deepseek.apiKey',
  ]);
  expect(plugins.config('wallet')).toEqual({ openrouter: { baseUrl: 'http://127.0.0.1:9/elsewhere' }, deepseek: { baseUrl: 'http://127.0.0.1:9/ds' } });
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toMatch(/wallet-secret/);
  // A new URL with a new key: the new key is kept.
  expect(plugins.write('wallet', { openrouter: { baseUrl: 'http://127.0.0.1:9/third', apiKey: 'sk-or-new' } })).toEqual([]);
  expect(plugins.config('wallet')).toMatchObject({ openrouter: { apiKey: 'sk-or-new', baseUrl: 'http://127.0.0.1:9/third' } });
});

test("an MCP server's headers and environment values are dropped when its URL, command or arguments change, and stay when they do not", () => {
  const plugins = new PluginSecrets(new SettingsService({ store }), secrets);
  plugins.write('mcp', {
    servers: {
      web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer tok-web' } },
      gh: { command: 'gh-mcp', args: ['--a'], env: { GH_TOKEN: 'ghp-1' } },
    },
  });
  // Written back as stored (empty values kept), with the same targets: nothing goes.
  expect(plugins.write('mcp', stored('mcp') as Record<string, unknown>)).toEqual([]);
  // The URL changes with the header kept empty: the header goes, from the key file and from the config.
  expect(
    plugins.write('mcp', {
      servers: { web: { url: 'http://127.0.0.1:8/evil', headers: { Authorization: '' } }, gh: { command: 'gh-mcp', args: ['--a'], env: { GH_TOKEN: '' } } },
    }),
  ).toEqual(['servers.web.headers.Authorization']);
  expect(stored('mcp')).toEqual({
    servers: { web: { url: 'http://127.0.0.1:8/evil', headers: {} }, gh: { command: 'gh-mcp', args: ['--a'], env: { GH_TOKEN: '' } } },
  });
  // The arguments change: the environment goes too.
  expect(
    plugins.write('mcp', {
      servers: { web: { url: 'http://127.0.0.1:8/evil', headers: {} }, gh: { command: 'gh-mcp', args: ['--b'], env: { GH_TOKEN: '' } } },
    }),
  ).toEqual(['servers.gh.env.GH_TOKEN']);
  expect(plugins.config('mcp')).toEqual({
    servers: { web: { url: 'http://127.0.0.1:8/evil', headers: {} }, gh: { command: 'gh-mcp', args: ['--b'], env: {} } },
  });
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toMatch(/tok-web|ghp-1/);
});
