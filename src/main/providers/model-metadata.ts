import type { ModelInfo } from '../../shared/providers/index.ts';
import type { ModelCatalog } from './model-catalog.ts';

/** Presets whose models are free by definition: they run on the user's own machine. */
export const FREE_PRESETS: ReadonlySet<string> = new Set(['ollama', 'lmstudio']);

export interface ModelMetadataInput {
  /** What the provider's own model list said of the model, if it listed it. */
  listed: ModelInfo | undefined;
  modelId: string;
  /** The account's preset ('openai', 'ollama', 'custom', …) when known. */
  presetId: string | undefined;
  catalog: ModelCatalog;
  /** The context window assumed when nobody says (the account's or preset's). */
  fallbackContextWindow: number;
}

const ZERO = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const hasPrice = (p: ModelInfo['pricing'] | undefined) => !!p && (p.input > 0 || p.output > 0);

/**
 * A model's context window, output limit, prices and whether it reasons: what the provider reports
 * (OpenRouter reports prices) merged over the models.dev catalog, matched by model id for any account —
 * `gpt-4o-mini` behind any base URL is priced as the catalog says. Ollama and LM Studio are free; a model
 * nobody prices is `priced: false` (cost unknown), never $0.00.
 */
export function modelMetadata(input: ModelMetadataInput): ModelInfo {
  const { listed, modelId } = input;
  const known = input.catalog.find(modelId);
  const free = input.presetId !== undefined && FREE_PRESETS.has(input.presetId);
  const listedWindow = listed && listed.contextWindow !== input.fallbackContextWindow ? listed.contextWindow : undefined;
  const contextWindow = listedWindow ?? known?.contextWindow ?? listed?.contextWindow ?? input.fallbackContextWindow;
  const maxOutputTokens = listed?.maxOutputTokens ?? known?.maxOutputTokens ?? undefined;
  const pricing = free ? ZERO : hasPrice(listed?.pricing) ? listed!.pricing : (known?.pricing ?? null);
  return {
    id: modelId,
    ...(listed?.name || known?.name ? { name: listed?.name && listed.name !== modelId ? listed.name : (known?.name ?? listed?.name ?? modelId) } : {}),
    contextWindow,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
    reasoning: (listed?.reasoning ?? false) || (known?.reasoning ?? false),
    ...(listed?.images !== undefined || known ? { images: (listed?.images ?? false) || (known?.images ?? false) } : {}),
    pricing: pricing ?? ZERO,
    priced: pricing !== null,
  };
}
