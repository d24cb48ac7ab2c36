// Plugin settings through the API: the form's channels (plugins.getConfig / plugins.setConfig) and the
// /set command, against a real app, real plugin processes and a loopback server playing OpenRouter.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { FileSecretStore } from '../../src/main/providers/index.ts';
import type { PluginConfigView } from '../../src/shared/api/index.ts';
import { type AccountServer, OPENROUTER_PATH, startAccountServer } from '../plugins-bundled/account-server.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { startByteRecorder } from '../fixtures/byte-recorder.ts';

const WALLET_KEY = 'sk-or-v1-management-key-set-in-settings';
const PEEK_TOKEN = 'peek-token-of-its-own-0042';

let t: AppUnderTest;
let dir: string;
let app: App;
let api: ApiRouter;
let server: AccountServer;

/** A user plugin with settings of its own (one secret) whose command answers with the config it reads. */
function writePeekPlugin(): void {
  const folder = join(dir, 'plugins', 'peek');
  mkdirSync(folder, { recursive: true });
  const configuration = {
    type: 'object',
    properties: {
      token: { type: 'string', title: 'Token', secret: true },
      city: { type: 'string', default: 'Oslo' },
      units: { type: 'string', enum: ['metric', 'imperial'] },
    },
  };
  writeFileSync(
    join(folder, 'manifest.json'),
    JSON.stringify({ id: 'peek', version: '0.1.0', name: 'Peek', protocolVersion: 1, entry: 'index.js', configuration }),
  );
  writeFileSync(
    join(folder, 'index.js'),
    `let ctx;
    export default { protocolVersion: 1, initialize(c) { ctx = c; return true; }, shutdown() {}, capabilities() {
      return [{ kind: 'command', path: ['peek'], help: 'shows the config it reads', run: async () => JSON.stringify(await ctx.configAll()) }];
    } };\n`,
  );
}

beforeEach(async () => {
  server = await startAccountServer();
  t = openApp({
    prefix: 'amber-plugin-config-',
    before: (d) => {
      dir = d;
      writePeekPlugin();
    },
    app: (d) => ({ dataDir: d, secrets: new FileSecretStore(join(d, 'secrets.json'), { warn: () => {} }) }),
  });
  ({ app, api } = t);
});

afterEach(async () => {
  await t.close();
  await server.close();
});

const ok = <T>(channel: string, input: unknown = {}) => t.call<T>(channel, input);
const refused = (channel: string, input: unknown) => t.refused(channel, input);

const command = async (input: string): Promise<{ kind: string; text: string }> =>
  (await ok<{ result: { kind: string; text: string } }>('commands.run', { input })).result;
const storedSettings = (): string =>
  JSON.stringify([
    app.sessions.getSetting('plugin.wallet.config'),
    app.sessions.getSetting('plugin.peek.config'),
    app.sessions.getSetting('plugin.budget.config'),
  ]);

test("the wallet's OpenRouter key set in Settings reaches the running wallet, which offers the account at once, and is never shown back", async () => {
  await ok('plugins.setState', { id: 'wallet', enabled: true });
  expect(app.plugins.registries.wallets.list().map((w) => w.id)).not.toContain('openrouter');

  const view = await ok<PluginConfigView>('plugins.setConfig', {
    id: 'wallet',
    values: { 'openrouter.apiKey': WALLET_KEY, 'openrouter.baseUrl': server.openrouterBaseUrl, warnBelow: 2 },
  });
  expect(view.secrets).toMatchObject({ 'openrouter.apiKey': true, 'deepseek.apiKey': false });
  expect(view.values).toMatchObject({ 'openrouter.baseUrl': server.openrouterBaseUrl, warnBelow: 2 });
  expect(JSON.stringify(view)).not.toContain(WALLET_KEY);
  expect(JSON.stringify(await ok('plugins.getConfig', { id: 'wallet' }))).not.toContain(WALLET_KEY);
  expect(app.sessions.getSetting('plugin.wallet.config')).not.toContain(WALLET_KEY);
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain(WALLET_KEY);

  // Live: the plugin that was on was started again with the key, so it now declares the wallet.
  expect(app.plugins.get('wallet').state).toBe('active');
  expect(app.plugins.registries.wallets.list().map((w) => w.id)).toContain('openrouter');
  expect(await ok('wallets.refresh', { id: 'openrouter' })).toMatchObject({ balance: 14.75, currency: 'USD' });
  expect(server.seen).toContainEqual({ path: OPENROUTER_PATH, authorization: `Bearer ${WALLET_KEY}` });
});

test("a plugin's own secret reaches its own process only, never another plugin's, nor the window", async () => {
  await ok('plugins.setConfig', { id: 'wallet', values: { 'openrouter.apiKey': WALLET_KEY } });
  await ok('plugins.setConfig', { id: 'peek', values: { token: PEEK_TOKEN, units: 'metric' } });
  // Settings of a plugin that is off are stored; the plugin stays off (and unconfirmed).
  expect(app.plugins.get('peek')).toMatchObject({ enabled: false, pid: null, needsConfirmation: true });
  await ok('plugins.setState', { id: 'peek', enabled: true, confirm: true });
  const seen = JSON.parse((await command('/peek')).text) as Record<string, unknown>;
  expect(seen).toMatchObject({ token: PEEK_TOKEN, units: 'metric' });
  expect(JSON.stringify(seen)).not.toContain(WALLET_KEY);
  expect(JSON.stringify(await ok('plugins.getConfig', { id: 'peek' }))).not.toContain(PEEK_TOKEN);
  expect(storedSettings()).not.toContain(PEEK_TOKEN);
});

test("the settings channels refuse wrong types, unknown keys, oversize values and another plugin's secret, and store nothing", async () => {
  const before = storedSettings();
  const secretsBefore = (() => {
    try {
      return readFileSync(join(dir, 'secrets.json'), 'utf8');
    } catch {
      return '';
    }
  })();

  expect(await refused('plugins.setConfig', { id: 'wallet', values: { refreshMinutes: 'soon' } })).toEqual({
    code: 'invalid_input',
    message: "The setting 'refreshMinutes' must be a number.",
  });
  expect(await refused('plugins.setConfig', { id: 'wallet', values: { timeoutMs: 1.5 } })).toMatchObject({
    message: "The setting 'timeoutMs' must be a whole number.",
  });
  expect(await refused('plugins.setConfig', { id: 'wallet', values: { 'deepseek.currency': 'EUR' } })).toMatchObject({
    message: "The setting 'deepseek.currency' must be one of CNY, USD.",
  });
  expect((await refused('plugins.setConfig', { id: 'wallet', values: { 'openrouter.token': 'x' } })).message).toMatch(
    /^'openrouter\.token' is not a setting of the plugin 'wallet'/,
  );
  expect((await refused('plugins.setConfig', { id: 'wallet', values: { openrouter: 'x' } })).message).toMatch(/is not a setting/);
  // A key that would reach an object's prototype sets nothing, anywhere.
  const proto = await api.call('plugins.setConfig', { id: 'wallet', values: JSON.parse('{"__proto__": {"refreshMinutes": 1}}') });
  expect(proto.ok ? (proto.value as PluginConfigView).values : proto.error.code).toEqual(proto.ok ? {} : 'invalid_input');
  expect(({} as Record<string, unknown>)['refreshMinutes']).toBeUndefined();
  // Oversize: the API edge caps every value; the manifest's own maxLength is checked in main.
  expect((await refused('plugins.setConfig', { id: 'wallet', values: { 'openrouter.apiKey': 'k'.repeat(5000) } })).code).toBe('invalid_input');
  expect(await refused('plugins.setConfig', { id: 'wallet', values: { 'openrouter.apiKey': 'k'.repeat(401) } })).toMatchObject({
    message: "The setting 'openrouter.apiKey' must be at most 400 characters.",
  });
  expect((await refused('plugins.setConfig', { id: 'wallet', values: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 1])) })).code).toBe(
    'invalid_input',
  );
  // Another plugin's secret: not a setting of this plugin, by any spelling.
  expect((await refused('plugins.setConfig', { id: 'peek', values: { 'openrouter.apiKey': WALLET_KEY } })).message).toMatch(
    /is not a setting of the plugin 'peek'/,
  );
  expect((await refused('plugins.setConfig', { id: 'peek', values: { 'wallet.openrouter.apiKey': WALLET_KEY } })).message).toMatch(/is not a setting/);
  expect((await refused('plugins.setConfig', { id: 'budget', values: { 'openrouter.apiKey': WALLET_KEY } })).message).toMatch(
    /is not a setting of the plugin 'budget'/,
  );
  // Plugins without settings, and none at all.
  expect(await refused('plugins.getConfig', { id: 'example' })).toEqual({ code: 'invalid_input', message: "The plugin 'example' has no settings." });
  expect((await refused('plugins.getConfig', { id: 'nosuch' })).code).toBe('not_found');
  expect((await refused('plugins.setConfig', { id: 'wallet', values: { warnBelow: 1 }, extra: true })).code).toBe('invalid_input');

  expect(storedSettings()).toBe(before);
  let secretsAfter = '';
  try {
    secretsAfter = readFileSync(join(dir, 'secrets.json'), 'utf8');
  } catch {}
  expect(secretsAfter).toBe(secretsBefore);
});

test('/set plugin.<id>.<key> VALUE sets what the form sets, completes keys step by step and the choices of a setting, and never echoes a secret', async () => {
  const complete = async (input: string) => (await ok<{ label: string; insert: string }[]>('commands.complete', { input })).map((c) => [c.label, c.insert]);
  expect(await complete('/set plugin.')).toEqual([
    ['plugin.budget.', '/set plugin.budget.'],
    ['plugin.memory.', '/set plugin.memory.'],
    ['plugin.peek.', '/set plugin.peek.'],
    ['plugin.wallet.', '/set plugin.wallet.'],
    ['plugin.workspace_search.', '/set plugin.workspace_search.'],
  ]);
  expect((await complete('/set plugin.wallet.de')).map(([label]) => label)).toEqual(['plugin.wallet.deepseek.']);
  expect((await complete('/set plugin.wallet.deepseek.c')).map(([label]) => label)).toEqual(['plugin.wallet.deepseek.currency']);
  expect(await complete('/set plugin.wallet.deepseek.currency ')).toEqual([
    ['CNY', '/set plugin.wallet.deepseek.currency CNY '],
    ['USD', '/set plugin.wallet.deepseek.currency USD '],
  ]);
  expect((await complete('/set plugin.wallet.refreshMinutes ')).map(([label]) => label)).toEqual([]);

  const events: unknown[] = [];
  api.subscribe((event, payload) => event === 'plugins.configChanged' && events.push(payload));
  expect(await command('/set plugin.wallet.refreshMinutes 2.5')).toEqual({ kind: 'ok', text: 'Wallet: refreshMinutes is now 2.5.' });
  // An open form hears of it.
  expect(events).toEqual([{ id: 'wallet' }]);
  expect(await command('/set plugin.wallet.deepseek.currency USD')).toEqual({ kind: 'ok', text: 'Wallet: deepseek.currency is now "USD".' });
  expect(await command(`/set plugin.wallet.openrouter.apiKey ${WALLET_KEY}`)).toEqual({ kind: 'ok', text: 'Wallet: openrouter.apiKey is set.' });
  expect(await command('/set plugin.wallet.openrouter.apiKey')).toEqual({ kind: 'ok', text: 'Wallet: openrouter.apiKey is set (secret; never shown).' });
  expect(await command('/set plugin.wallet.timeoutMs')).toEqual({ kind: 'ok', text: 'Wallet: timeoutMs is 10000 (the default).' });
  expect((await ok<PluginConfigView>('plugins.getConfig', { id: 'wallet' })).values).toEqual({ refreshMinutes: 2.5, 'deepseek.currency': 'USD' });
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain(WALLET_KEY);

  // The same checks as the form: nothing is stored.
  expect(await command('/set plugin.wallet.refreshMinutes soon')).toEqual({ kind: 'error', text: "/set: The setting 'refreshMinutes' must be a number." });
  expect(await command('/set plugin.wallet.deepseek.currency EUR')).toEqual({
    kind: 'error',
    text: "/set: The setting 'deepseek.currency' must be one of CNY, USD.",
  });
  expect(await command('/set plugin.wallet.nothing 1')).toEqual({ kind: 'error', text: "/set: Wallet has no setting 'nothing' (Tab completes its settings)." });
  expect((await command('/set plugin.nosuch.key 1')).text).toBe("/set: There is no plugin 'nosuch'.");
  expect((await command('/set plugin.example.key 1')).text).toBe("/set: The plugin 'example' has no settings.");
  expect((await command('/set walletKey 1')).kind).toBe('error');
  expect((await ok<PluginConfigView>('plugins.getConfig', { id: 'wallet' })).values).toEqual({ refreshMinutes: 2.5, 'deepseek.currency': 'USD' });
  expect(events).toHaveLength(3);
  // A plugin's setting may be named without plugin. where no core setting has the name.
  expect(await command('/set memory.mode auto')).toEqual({ kind: 'ok', text: 'Memory: mode is now "auto".' });
  expect(await command('/get memory.mode')).toEqual({ kind: 'ok', text: 'Memory: mode is "auto".' });
  expect(await command('/set plugin.memory.mode')).toEqual({ kind: 'ok', text: 'Memory: mode is "auto".' });
  expect(await command('/set memory.mode sometimes')).toEqual({ kind: 'error', text: "/set: The setting 'mode' must be one of suggest, auto, off." });
  expect((await command('/set memory.nothing 1')).kind).toBe('error');
  // /set plugin on|off still walks to its own command.
  expect(await command('/set plugin off example')).toEqual({ kind: 'ok', text: 'Example is off.' });
});

/** A user plugin that declares `configuration` and nothing else. */
function writeUserPlugin(id: string, configuration: unknown): void {
  const folder = join(dir, 'plugins', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'manifest.json'), JSON.stringify({ id, version: '0.1.0', name: id, protocolVersion: 1, entry: 'index.js', configuration }));
  writeFileSync(
    join(folder, 'index.js'),
    'export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() { return []; } };\n',
  );
}

test('a user plugin whose settings schema is over a cap or outside the subset is listed with the reason and offers no settings', async () => {
  writeUserPlugin('many', { type: 'object', properties: Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`s${i}`, { type: 'boolean' }])) });
  writeUserPlugin('huge', { type: 'object', properties: { s: { type: 'string', description: 'x'.repeat(40_000) } } });
  writeUserPlugin('regex', { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
  writeUserPlugin('deep', { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: {} } } } } });
  await ok('plugins.rescan');
  const listing = await ok<{ plugins: { id: string; hasSettings: boolean }[]; problems: { dir: string; reason: string }[] }>('plugins.list');
  const reason = (id: string) => listing.problems.find((p) => p.dir === join(dir, 'plugins', id))?.reason ?? '';
  expect(reason('many')).toContain('a configuration has at most 128 settings');
  expect(reason('huge')).toMatch(/configuration/);
  expect(reason('regex')).toMatch(/configuration/);
  expect(reason('deep')).toMatch(/configuration/);
  expect(listing.plugins.map((p) => p.id)).not.toEqual(expect.arrayContaining(['many']));
  expect(
    listing.plugins
      .filter((p) => p.hasSettings)
      .map((p) => p.id)
      .sort(),
  ).toEqual(['budget', 'memory', 'peek', 'wallet', 'workspace_search']);
});

test("changing the wallet's base URL drops its stored key: a server at the new URL never receives it, only a key entered again", async () => {
  const attacker = await startByteRecorder({ status: 200, body: JSON.stringify({ data: { total_credits: 1, total_usage: 0 } }) });
  try {
    await ok('plugins.setState', { id: 'wallet', enabled: true });
    await ok('plugins.setConfig', { id: 'wallet', values: { 'openrouter.apiKey': WALLET_KEY, 'openrouter.baseUrl': server.openrouterBaseUrl } });
    expect(await ok('wallets.refresh', { id: 'openrouter' })).toMatchObject({ balance: 14.75 });

    // The form saves a new base URL only, as a user tricked into pasting one would.
    const view = await ok<PluginConfigView>('plugins.setConfig', { id: 'wallet', values: { 'openrouter.baseUrl': `${attacker.url}/api/v1` } });
    expect(view.secrets['openrouter.apiKey']).toBe(false);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain(WALLET_KEY);
    // Without a key the account is not offered, so nothing is asked of the new URL at all.
    expect(app.plugins.registries.wallets.list().map((w) => w.id)).not.toContain('openrouter');
    expect((await refused('wallets.refresh', { id: 'openrouter' })).code).toBe('not_found');
    expect(attacker.text()).not.toContain(WALLET_KEY);
    expect(attacker.text().toLowerCase()).not.toContain('authorization');

    // A key typed again for the new URL is the only one it ever sees.
    await ok('plugins.setConfig', { id: 'wallet', values: { 'openrouter.apiKey': 'sk-or-v1-typed-again-for-the-new-url' } });
    await ok('wallets.refresh', { id: 'openrouter' });
    await attacker.untilRequests(1);
    expect(attacker.text()).toContain('Bearer sk-or-v1-typed-again-for-the-new-url');
    expect(attacker.text()).not.toContain(WALLET_KEY);
  } finally {
    await attacker.close();
  }
});
