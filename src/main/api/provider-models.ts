import type { ModelsRefreshed } from '../../shared/api/index.ts';
import type { App } from '../app.ts';
import { DIALECT_PLUGINS } from '../providers/index.ts';
import { type Probe, TEST_TIMEOUT_MS } from './provider-setup.ts';

/**
 * "Refresh models": each saved connection's server is asked for its models (with the stored key), and what
 * it lists becomes what the picker, the palette and /model offer. A dialect plugin whose accounts changed
 * starts again, so it offers them at once; a server that does not answer keeps its old list.
 */
export async function refreshProviderModels(app: App, probe: Probe, timeoutMs: number = TEST_TIMEOUT_MS): Promise<ModelsRefreshed> {
  const restart = new Set<string>();
  const accounts = await Promise.all(
    app.providers.list().map(async (account) => {
      const connection = app.providers.connectionOf(account.id);
      if (!connection) return { id: account.id, name: account.name, ok: false, models: 0, message: 'This connection was removed meanwhile.' };
      const result = await probe(connection, timeoutMs).catch((e: unknown) => ({
        ok: false,
        models: [] as string[],
        message: e instanceof Error ? e.message : String(e),
      }));
      if (result.ok && app.providers.setModels(account.id, result.models)) restart.add(DIALECT_PLUGINS[account.dialect]);
      const offered = app.providers.list().find((a) => a.id === account.id)?.models.length ?? 0;
      return { id: account.id, name: account.name, ok: result.ok, models: offered, message: result.message };
    }),
  );
  for (const pluginId of restart) {
    if (!app.plugins.list().some((p) => p.id === pluginId && p.enabled)) continue;
    // Settles once the plugin offers the new list; one that fails shows Failed with its reason in Settings.
    await app.plugins
      .setState(pluginId, false)
      .then(() => app.plugins.setState(pluginId, true))
      .catch(() => undefined);
  }
  return { accounts };
}
