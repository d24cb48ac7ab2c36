import { z } from 'zod';

/** The most dimensions a vector may have (the largest common embedding models give 3,072 or 4,096). */
export const MAX_DIMENSIONS = 8192;

/**
 * The embeddings endpoint the user named in Settings (the plugin's `embeddings` group): an OpenAI-compatible
 * API whose `POST <baseUrl>/embeddings` answers vectors, with its model, an optional key and dimensions.
 */
export const EmbeddingConfig = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: 'the base URL must be an http or https address, such as http://localhost:11434/v1' }),
  model: z.string().trim().min(1, 'the model is empty').max(200, 'the model name is longer than 200 characters'),
  apiKey: z.string().trim().min(1).max(4000).optional(),
  dimensions: z.number().int().min(1).max(MAX_DIMENSIONS).optional(),
});
export type EmbeddingConfig = z.infer<typeof EmbeddingConfig>;

/** Where the user turns semantic search on, for the sentences that say how. */
export const TURN_ON_HINT = 'Settings → Plugins → Workspace search → Embeddings (a base URL and a model)';

/**
 * Reads the `embeddings` group of the plugin's config: null when no base URL or model is set (semantic search
 * off), with `problem` saying why a value that is set cannot be used.
 */
export function readEmbeddingConfig(raw: Record<string, unknown>): { config: EmbeddingConfig | null; problem: string | null } {
  const group = raw['embeddings'];
  if (group === undefined || group === null) return { config: null, problem: null };
  if (typeof group !== 'object' || Array.isArray(group)) return { config: null, problem: 'The embeddings settings are not a group of settings.' };
  const given = Object.fromEntries(Object.entries(group).filter(([, value]) => value !== '' && value !== null && value !== undefined));
  if (given['baseUrl'] === undefined && given['model'] === undefined) return { config: null, problem: null };
  if (given['baseUrl'] === undefined || given['model'] === undefined) {
    return {
      config: null,
      problem: `Semantic search needs both a base URL and a model (${TURN_ON_HINT}); only the ${given['model'] === undefined ? 'base URL' : 'model'} is set.`,
    };
  }
  const parsed = EmbeddingConfig.safeParse(given);
  if (parsed.success) return { config: { ...parsed.data, baseUrl: parsed.data.baseUrl.replace(/\/+$/, '') }, problem: null };
  const issue = parsed.error.issues[0];
  return { config: null, problem: `The embeddings setting '${issue?.path.join('.') ?? '?'}' cannot be used: ${issue?.message ?? 'invalid'}.` };
}

/** What the stored vectors were made with: a change of endpoint, model or dimensions makes them all again. */
export function embeddingModelKey(config: EmbeddingConfig): string {
  return JSON.stringify([config.baseUrl, config.model, config.dimensions ?? null]);
}
