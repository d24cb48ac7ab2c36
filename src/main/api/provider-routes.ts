import type { Channel, ModelAccount, ModelList } from '../../shared/api/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import type { Handlers } from './api-router.ts';
import { modelChoices } from './model-choices.ts';
import { refreshProviderModels } from './provider-models.ts';
import { type Probe, providerConnections, providerPresets, removeProvider, saveProvider, savedAccount, TEST_TIMEOUT_MS } from './provider-setup.ts';

type ProviderChannels = Extract<Channel, `providers.${string}` | `models.${string}`>;

/** The models the set-up providers offer, grouped by account (each account once, in the order its models come). */
function modelList(app: App): ModelList {
  const accounts = new Map<string, ModelAccount>();
  for (const m of modelChoices(app)) {
    const account = accounts.get(m.provider) ?? { id: m.provider, name: m.account ?? m.provider, models: [] };
    account.models.push(m);
    accounts.set(m.provider, account);
  }
  return { default: app.defaultModel(), accounts: [...accounts.values()] };
}

/** Provider setup over the API: the presets (with what answers locally), the connection test, saving; the models they offer. */
export function createProviderRoutes(app: App, probe: Probe): Disposable & { handlers: Pick<Handlers, ProviderChannels> } {
  return {
    handlers: {
      'providers.presets': () => providerPresets(probe),
      'providers.test': ({ baseUrl, apiKey, dialect, flavor }) =>
        probe({ baseUrl, ...(apiKey ? { apiKey } : {}), ...(dialect ? { dialect } : {}), ...(flavor ? { flavor } : {}) }, TEST_TIMEOUT_MS),
      'providers.save': async ({ providerId, baseUrl, apiKey, model, flavor, models, accountId, name }) => {
        const saved = await saveProvider(app, {
          providerId,
          ...(accountId !== undefined ? { accountId } : {}),
          ...(name !== undefined ? { name } : {}),
          baseUrl,
          model,
          ...(apiKey ? { apiKey } : {}),
          ...(flavor ? { flavor } : {}),
          ...(models ? { models } : {}),
        });
        return { ok: true as const, ...saved };
      },
      'providers.refreshModels': () => refreshProviderModels(app, probe),
      'providers.connections': () => providerConnections(app),
      'models.list': () => modelList(app),
      'providers.testConnection': ({ id }) => {
        const account = savedAccount(app, id);
        const apiKey = app.providers.apiKey(account.id);
        return probe({ baseUrl: account.baseUrl, dialect: account.dialect, flavor: account.presetId, ...(apiKey ? { apiKey } : {}) }, TEST_TIMEOUT_MS);
      },
      'providers.remove': async ({ id }) => {
        await removeProvider(app, savedAccount(app, id).id);
        return { ok: true as const };
      },
    },
    dispose: () => {},
  };
}
