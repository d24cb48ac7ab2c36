import type { ProviderPresetView } from '../../shared/api/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import type { probeProvider } from './provider-probe.ts';

const isLocal = (url: string): boolean => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/i.test(url);

/**
 * The presets of every active provider plugin, for the first-run screen. Local servers (Ollama, LM Studio)
 * are asked briefly whether they answer, so the screen can offer the one that is running.
 */
export async function providerPresets(app: App, probe: typeof probeProvider): Promise<ProviderPresetView[]> {
  const views: ProviderPresetView[] = [];
  for (const provider of app.plugins.registries.providers.list()) {
    for (const preset of provider.presets) {
      const baseUrl = preset.baseUrl ?? '';
      views.push({
        id: `${provider.id}:${preset.id}`,
        providerId: provider.id,
        name: preset.label,
        baseUrl,
        dialect: provider.flavor,
        flavor: preset.id,
        needsKey: baseUrl !== '' && !isLocal(baseUrl),
        detected: false,
      });
    }
  }
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

/**
 * Writes the provider plugin's connection settings into its live config (`plugin.<id>.config`, read by the
 * plugin at each use) and makes the model the default for conversations that name none.
 */
export function saveProvider(app: App, choice: ProviderChoice): void {
  const provider = app.plugins.registries.providers.list().find((p) => p.id === choice.providerId);
  if (!provider) throw new AmberError('not_found', `No active plugin provides ${choice.providerId}. Turn its plugin on, then try again.`);
  const key = `plugin.${provider.pluginId}.config`;
  let config: Record<string, unknown> = {};
  try {
    const raw = app.sessions.getSetting(key);
    if (raw) config = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    config = {};
  }
  const next = { ...config, baseUrl: choice.baseUrl, ...(choice.apiKey ? { apiKey: choice.apiKey } : {}), ...(choice.flavor ? { flavor: choice.flavor } : {}) };
  app.sessions.setSetting(key, JSON.stringify(next));
  app.setDefaultModel({ provider: choice.providerId, modelId: choice.model });
}
