import type { ProviderPresetView } from '../../shared/api/index.ts';
import { PROVIDER_PRESETS, presetById } from '../../shared/providers/index.ts';
import type { App } from '../app.ts';
import { DIALECT_PLUGINS } from '../providers/index.ts';
import type { probeProvider } from './provider-probe.ts';

const isLocal = (url: string): boolean => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/i.test(url);

/**
 * The providers the first-run screen offers. Local servers (Ollama, LM Studio) are asked briefly whether
 * they answer, so the screen can offer the one that is running first.
 */
export async function providerPresets(probe: typeof probeProvider): Promise<ProviderPresetView[]> {
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
      if (v.baseUrl && isLocal(v.baseUrl)) v.detected = (await probe({ baseUrl: v.baseUrl, dialect: v.dialect, timeoutMs: 800 })).ok;
    }),
  );
  // A local server that answered comes first: it works without a key.
  return views.sort((a, b) => Number(b.detected) - Number(a.detected));
}

export interface ProviderChoice {
  providerId: string;
  baseUrl: string;
  apiKey?: string;
  flavor?: string;
  model: string;
}

export interface SavedProvider {
  keyCleared: boolean;
  /** A sentence for the user when saving did more than asked (the stored key was removed). */
  notice?: string;
}

/**
 * Saves the account (its key into the secret store, never the database), makes the model the default for
 * conversations that name none, and restarts the dialect's plugin so it offers the account at once.
 */
export async function saveProvider(app: App, choice: ProviderChoice): Promise<SavedProvider> {
  const { account, keyCleared } = app.providers.save({ presetId: presetById(choice.flavor ?? choice.providerId).id, baseUrl: choice.baseUrl, model: choice.model, ...(choice.apiKey !== undefined ? { apiKey: choice.apiKey } : {}) });
  const saved: SavedProvider = keyCleared
    ? { keyCleared, notice: `The base URL now points to another server (${new URL(account.baseUrl).origin}), so the stored API key was removed. Paste the key for that server and save again.` }
    : { keyCleared };
  const pluginId = DIALECT_PLUGINS[account.dialect];
  if (!app.plugins.list().some((p) => p.id === pluginId)) return saved;
  // Settles once the plugin offers the account; a plugin that fails shows Failed with its reason in Settings.
  await app.plugins
    .setState(pluginId, false)
    .then(() => app.plugins.setState(pluginId, true))
    .catch(() => undefined);
  return saved;
}
