import type { ProviderConnectionView, ProviderPresetView } from '../../shared/api/index.ts';
import type { ProviderProbeResult } from '../../shared/plugins/index.ts';
import { PROVIDER_PRESETS, presetById } from '../../shared/providers/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { DIALECT_PLUGINS, type ProviderAccount, WALLET_PLUGIN } from '../providers/index.ts';

const isLocal = (url: string): boolean => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/i.test(url);

/** How long the first-run screen waits for a local server to answer before it shows the list. */
export const DETECT_TIMEOUT_MS = 800;
/** How long "Test connection" waits for the server. */
export const TEST_TIMEOUT_MS = 6000;
/** How long a test the user asked for waits for its provider plugin to finish starting (the app was just launched). */
export const TEST_START_WAIT_MS = 20_000;

export interface ConnectionTest {
  baseUrl: string;
  apiKey?: string;
  /** The preset's id; decides the dialect when `dialect` is absent. */
  flavor?: string;
  /** 'anthropic' asks the Anthropic plugin; anything else the OpenAI-compatible one. */
  dialect?: string;
}

/** A connection test: the endpoint, and how long the plugin may take. */
export type Probe = (test: ConnectionTest, timeoutMs: number) => Promise<ProviderProbeResult>;

/**
 * "Test connection": the dialect's provider plugin lists the endpoint's models, with its own code for that
 * server (paths, headers). Throws `unavailable` with what to do when that plugin is off.
 */
export function testConnection(app: App, test: ConnectionTest, timeoutMs: number = TEST_TIMEOUT_MS): Promise<ProviderProbeResult> {
  const dialect = test.dialect ?? presetById(test.flavor).dialect;
  const pluginId = dialect === 'anthropic' ? DIALECT_PLUGINS.anthropic : DIALECT_PLUGINS['openai-compatible'];
  // Without a flavor, the dialect's plain variant: no preset-specific rules (a key it would require).
  const flavor = test.flavor ?? (dialect === 'anthropic' ? 'anthropic' : 'custom');
  // A test the user asked for waits for a plugin still starting; a quick look for local servers does not.
  const startWaitMs = timeoutMs >= TEST_TIMEOUT_MS ? TEST_START_WAIT_MS : timeoutMs;
  return app.plugins.probe(pluginId, { flavor, baseUrl: test.baseUrl, ...(test.apiKey ? { apiKey: test.apiKey } : {}) }, { timeoutMs, startWaitMs });
}

/**
 * The providers the first-run screen offers. Local servers (Ollama, LM Studio) are asked briefly whether
 * they answer, through their provider plugin, so the screen can offer the one that is running first. A
 * test that cannot run (the plugin is off) leaves the preset undetected.
 */
export async function providerPresets(probe: Probe): Promise<ProviderPresetView[]> {
  const views: ProviderPresetView[] = PROVIDER_PRESETS.map((preset) => ({
    id: preset.id,
    providerId: preset.id,
    name: preset.name,
    baseUrl: preset.baseUrl,
    dialect: preset.dialect,
    flavor: preset.id,
    needsKey: preset.needsKey,
    detected: false,
  }));
  await Promise.all(
    views.map(async (v) => {
      if (!v.baseUrl || !isLocal(v.baseUrl)) return;
      v.detected = await probe({ baseUrl: v.baseUrl, dialect: v.dialect, flavor: v.flavor }, DETECT_TIMEOUT_MS).then(
        (r) => r.ok,
        () => false,
      );
    }),
  );
  // A local server that answered comes first: it works without a key.
  return views.sort((a, b) => Number(b.detected) - Number(a.detected));
}

export interface ProviderChoice {
  providerId: string;
  /** The saved connection to change; absent: a new one when `name` is given, else the preset's own. */
  accountId?: string;
  name?: string;
  baseUrl: string;
  apiKey?: string;
  flavor?: string;
  model: string;
  /** Every model the connection test listed, offered beside `model`. */
  models?: string[];
}

export interface SavedProvider {
  /** The id of the connection saved (a new one's is made from its name). */
  accountId: string;
  keyCleared: boolean;
  /** A sentence for the user when saving did more than asked (the stored key was removed). */
  notice?: string;
}

/**
 * Saves the account (its key into the secret store, never the database), makes the model the default for
 * conversations that name none, and restarts the dialect's plugin so it offers the account at once.
 */
export async function saveProvider(app: App, choice: ProviderChoice): Promise<SavedProvider> {
  const wallets = app.providers.walletAccounts();
  const { account, keyCleared } = app.providers.save({
    presetId: presetById(choice.flavor ?? choice.providerId).id,
    ...(choice.accountId !== undefined ? { accountId: choice.accountId } : {}),
    ...(choice.name !== undefined ? { name: choice.name } : {}),
    baseUrl: choice.baseUrl,
    model: choice.model,
    ...(choice.models ? { listed: choice.models } : {}),
    ...(choice.apiKey !== undefined ? { apiKey: choice.apiKey } : {}),
  });
  const saved: SavedProvider = keyCleared
    ? {
        accountId: account.id,
        keyCleared,
        notice: `The base URL now points to another server (${new URL(account.baseUrl).origin}), so the stored API key was removed. Paste the key for that server and save again.`,
      }
    : { accountId: account.id, keyCleared };
  await restartWalletIfChanged(app, wallets);
  const pluginId = DIALECT_PLUGINS[account.dialect];
  if (!app.plugins.list().some((p) => p.id === pluginId)) return saved;
  // Settles once the plugin offers the account; a plugin that fails shows Failed with its reason in Settings.
  await app.plugins
    .setState(pluginId, false)
    .then(() => app.plugins.setState(pluginId, true))
    .catch(() => undefined);
  return saved;
}

/**
 * The wallet declares a wallet per account with a balance endpoint at start: when those accounts (their
 * names, addresses or keys) changed, it starts again (if it is on) so its wallets follow. Never throws.
 */
async function restartWalletIfChanged(app: App, before: ReturnType<App['providers']['walletAccounts']>): Promise<void> {
  if (JSON.stringify(before) === JSON.stringify(app.providers.walletAccounts())) return;
  if (!app.plugins.list().some((p) => p.id === WALLET_PLUGIN && p.enabled)) return;
  await app.plugins.restart(WALLET_PLUGIN).catch(() => undefined);
}

/** The saved connections as Settings lists them: never a key, only whether one is stored. */
export function providerConnections(app: App): ProviderConnectionView[] {
  const fallback = app.providers.defaultModel();
  return app.providers.list().map((a) => ({
    id: a.id,
    presetId: a.presetId,
    name: a.name,
    baseUrl: a.baseUrl,
    dialect: a.dialect,
    models: a.models,
    hasKey: app.providers.apiKey(a.id) !== null,
    isDefault: fallback?.provider === a.id,
  }));
}

/** The saved account with this id; `not_found` with a sentence when there is none (removed meanwhile). */
export function savedAccount(app: App, id: string): ProviderAccount {
  const account = app.providers.list().find((a) => a.id === id);
  if (!account) throw new AmberError('not_found', `There is no saved connection "${id}"; it may have been removed.`);
  return account;
}

/** Removes the account and its key, and restarts its dialect's plugin so it stops offering its models at once. */
export async function removeProvider(app: App, id: string): Promise<void> {
  const account = savedAccount(app, id);
  const wallets = app.providers.walletAccounts();
  app.providers.remove(account.id);
  await restartWalletIfChanged(app, wallets);
  const pluginId = DIALECT_PLUGINS[account.dialect];
  if (!app.plugins.list().some((p) => p.id === pluginId && p.enabled)) return;
  await app.plugins
    .setState(pluginId, false)
    .then(() => app.plugins.setState(pluginId, true))
    .catch(() => undefined);
}
