import type { ModelChoice } from '../../shared/api/index.ts';
import type { App } from '../app.ts';

/**
 * Every model the set-up providers offer, with the catalog's facts and the name of the account each comes
 * from: what the model picker lists (`chat.models`) and the forms that need no conversation (`models.list`).
 */
export function modelChoices(app: App): ModelChoice[] {
  const accounts = app.providers.list();
  return app.plugins.registries.providers.list().flatMap((p) => {
    const account = accounts.find((a) => a.id === p.id)?.name;
    return p.models.map((m) => {
      const info = app.modelInfo({ provider: p.id, modelId: m.id });
      return {
        provider: p.id,
        modelId: m.id,
        name: info?.name ?? m.name ?? m.id,
        reasoning: info?.reasoning ?? m.reasoning,
        ...(account ? { account } : {}),
        // The catalog's facts; a window nobody knows is the account's fallback, so it is not shown as a fact.
        contextWindow: info && info.contextWindow !== m.contextWindow ? info.contextWindow : null,
        price: info && info.priced !== false ? { input: info.pricing.input, output: info.pricing.output } : null,
        images: info?.images ?? null,
      };
    });
  });
}
