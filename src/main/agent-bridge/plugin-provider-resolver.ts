import type { ModelInfo, ProviderEvent, StreamFn } from '../../shared/providers/index.ts';
import type { ProviderResolver } from '../agent/index.ts';
import { AmberError } from '../errors.ts';
import type { AllowanceDecision, AllowanceRegistry, ProviderRegistry } from '../plugins/index.ts';

/** Assumed for a model the provider did not list (typed by hand with /model). */
const UNLISTED_CONTEXT_WINDOW = 32_768;

/** How old a decision asked for ahead of a call (see EarlyAllowanceChecks) may be when the call comes. */
export const EARLY_CHECK_MAX_AGE_MS = 500;

/**
 * Allowance decisions asked for ahead of the model call they are for: when a reply with tool calls is
 * stored, the next call's check runs while the tools do (the spend of that reply reaches the allowance
 * plugins before the check, on the same ordered pipe). The call then takes the decision instead of waiting
 * for a check of its own, but only when it was asked at most EARLY_CHECK_MAX_AGE_MS before and no
 * allowance was added or removed since; otherwise the call is checked again, as it would have been. A
 * refusal still ends the call before anything is sent to the provider.
 */
export class EarlyAllowanceChecks {
  readonly #allowances: AllowanceRegistry;
  readonly #clock: () => number;
  readonly #waiting = new Map<string, { decision: Promise<AllowanceDecision>; askedAt: number; registrations: number }>();

  constructor(allowances: AllowanceRegistry, clock: () => number = () => performance.now()) {
    this.#allowances = allowances;
    this.#clock = clock;
  }

  /** Starts the check for the next call to this provider and model. */
  ask(providerId: string, modelId: string): void {
    const decision = this.#allowances.check({ providerId, modelId });
    decision.catch(() => {});
    this.#waiting.set(key(providerId, modelId), { decision, askedAt: this.#clock(), registrations: this.#allowances.registrations });
  }

  /** The decision asked for this call, when there is one still good to use; null means "check now". */
  async take(providerId: string, modelId: string): Promise<AllowanceDecision | null> {
    const entry = this.#waiting.get(key(providerId, modelId));
    if (!entry) return null;
    this.#waiting.delete(key(providerId, modelId));
    // An allowance added or removed since (a plugin switched on or off, restarted with new limits) is asked now.
    if (entry.registrations !== this.#allowances.registrations || this.#clock() - entry.askedAt > EARLY_CHECK_MAX_AGE_MS) return null;
    try {
      return await entry.decision;
    } catch {
      return null;
    }
  }
}

const key = (providerId: string, modelId: string) => `${providerId}\u0000${modelId}`;

/**
 * Puts every provider call behind the allowances: a refusal ends the call as `blocked` with its sentence;
 * an allowance close to its limit lets the call through with a `notice` the user sees. With `early`, a
 * decision asked for ahead of the call is used when it is still good.
 */
export function guardWithAllowances(providerId: string, stream: StreamFn, allowances: AllowanceRegistry, early?: EarlyAllowanceChecks): StreamFn {
  return async function* guarded(request, signal): AsyncIterable<ProviderEvent> {
    const decision = (await early?.take(providerId, request.model.id)) ?? (await allowances.check({ providerId, modelId: request.model.id }));
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
export type ModelDescriber = (
  ref: { provider: string; modelId: string },
  listed: ModelInfo | undefined,
  fallbackContextWindow: number,
) => ModelInfo | Promise<ModelInfo>;

/** Resolves a session's model to the provider plugin that serves it, checked by the allowances. */
export function pluginProviderResolver(providers: ProviderRegistry, allowances: AllowanceRegistry, describe?: ModelDescriber): ProviderResolver {
  const early = new EarlyAllowanceChecks(allowances);
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
      : (listed ?? {
          id: ref.modelId,
          contextWindow: fallbackContextWindow,
          reasoning: false,
          pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          priced: false,
        });
    return { stream: guardWithAllowances(ref.provider, provider.stream, allowances, early), model, prepare: () => early.ask(ref.provider, model.id) };
  };
}
