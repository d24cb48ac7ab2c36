import { z } from 'zod';

/** A provider the first-run screen offers; the dialect plugins know how each one differs on the wire. */
export const ProviderPreset = z.object({
  id: z.string(),
  name: z.string(),
  /** Empty for "custom": the user types one. */
  baseUrl: z.string(),
  dialect: z.enum(['openai-compatible', 'anthropic']),
  needsKey: z.boolean(),
  /** Context window assumed for its models when the server does not say. */
  contextWindow: z.number().int().positive(),
});
export type ProviderPreset = z.infer<typeof ProviderPreset>;

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', dialect: 'openai-compatible', needsKey: true, contextWindow: 128_000 },
  { id: 'anthropic', name: 'Anthropic', baseUrl: 'https://api.anthropic.com', dialect: 'anthropic', needsKey: true, contextWindow: 200_000 },
  { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', dialect: 'openai-compatible', needsKey: false, contextWindow: 8192 },
  { id: 'lmstudio', name: 'LM Studio', baseUrl: 'http://localhost:1234/v1', dialect: 'openai-compatible', needsKey: false, contextWindow: 8192 },
  { id: 'openrouter', name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', dialect: 'openai-compatible', needsKey: true, contextWindow: 128_000 },
  { id: 'deepseek', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', dialect: 'openai-compatible', needsKey: true, contextWindow: 128_000 },
  { id: 'groq', name: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', dialect: 'openai-compatible', needsKey: true, contextWindow: 131_072 },
  { id: 'custom', name: 'Other OpenAI-compatible server', baseUrl: '', dialect: 'openai-compatible', needsKey: false, contextWindow: 32_768 },
];

/** The preset for an id; unknown ids are treated as a custom OpenAI-compatible server. */
export function presetById(id: string | undefined): ProviderPreset {
  return PROVIDER_PRESETS.find((p) => p.id === id) ?? PROVIDER_PRESETS.at(-1)!;
}
