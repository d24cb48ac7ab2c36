import type { ModelInfo, ProviderEvent, StreamFn } from '../../shared/providers/index.ts';
import type { ProviderResolver } from '../agent/index.ts';
import { AmberError } from '../errors.ts';
import type { AllowanceRegistry, ProviderRegistry } from '../plugins/index.ts';

/** Assumed for a model the provider did not list (typed by hand with /model). */
const UNLISTED_CONTEXT_WINDOW = 32_768;

/**
 * Puts every provider call behind the allowances: a refusal ends the call as `blocked` with its sentence;
 * an allowance close to its limit lets the call through with a `notice` the user sees.
 */
export function guardWithAllowances(providerId: string, stream: StreamFn, allowances: AllowanceRegistry): StreamFn {
  return async function* guarded(request, signal): AsyncIterable<ProviderEvent> {
    const decision = await allowances.check({ providerId, modelId: request.model.id });
    if (!decision.allowed) {
      yield {
        type: 'error',
        kind: 'blocked',
        message: {
          role: 'assistant',
          content: [],
          provider: providerId,
          model: request.model.id,
          stopReason: 'error',
          errorMessage: decision.reason ?? 'A budget refused this call.',
          timestamp: Date.now(),
        },
      };
      return;
    }
    for (const warning of decision.warnings ?? []) yield { type: 'notice', message: warning };
    yield* stream(request, signal);
  };
}

/**
 * What the composition root knows of a model beyond the provider's list (the catalog, free presets): see
 * src/main/providers/model-metadata.ts. Default: the provider's list as it is.
 */
export type ModelDescriber = (ref: { provider: string; modelId: string }, listed: ModelInfo | undefined, fallbackContextWindow: number) => ModelInfo | Promise<ModelInfo>;

/** Resolves a session's model to the provider plugin that serves it, checked by the allowances. */
export function pluginProviderResolver(providers: ProviderRegistry, allowances: AllowanceRegistry, describe?: ModelDescriber): ProviderResolver {
  return async (ref) => {
    const provider = providers.get(ref.provider)?.value;
    if (!provider) {
      const known = providers.list().map((p) => p.id);
      throw new AmberError(
        'unavailable',
        `No provider '${ref.provider}' is available${known.length ? ` (available: ${known.join(', ')})` : ''}. Set it up in Settings, or turn its plugin on.`,
      );
    }
    const listed = provider.models.find((m) => m.id === ref.modelId);
    const fallbackContextWindow = provider.models[0]?.contextWindow ?? UNLISTED_CONTEXT_WINDOW;
    const model: ModelInfo = describe
      ? await describe(ref, listed, fallbackContextWindow)
      : (listed ?? { id: ref.modelId, contextWindow: fallbackContextWindow, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, priced: false });
    return { stream: guardWithAllowances(ref.provider, provider.stream, allowances), model };
  };
}
