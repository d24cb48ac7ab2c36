/** How one OpenAI-compatible server differs from the others. */
export interface OpenAiCompatiblePreset {
  flavor: string;
  label: string;
  /** Undefined for "custom": the user must give one. */
  baseUrl: string | undefined;
  /** Whether the server needs a key; local servers do not. */
  needsKey: boolean;
  /** OpenAI wants `max_completion_tokens` (reasoning models reject `max_tokens`); others want `max_tokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Sends `stream_options.include_usage` so the last chunk carries token counts. */
  streamUsage: boolean;
  /** How a thinking level is sent: OpenAI's `reasoning_effort`, OpenRouter's `reasoning.effort`, or not at all. */
  reasoningParam: 'reasoning_effort' | 'openrouter' | 'none';
  /** Assumed when the server's model list gives no context size. */
  defaultContextWindow: number;
}

const common = { needsKey: true, maxTokensField: 'max_tokens', streamUsage: true, reasoningParam: 'reasoning_effort', defaultContextWindow: 128_000 } as const;

export const OPENAI_COMPATIBLE_PRESETS: Readonly<Record<string, OpenAiCompatiblePreset>> = {
  openai: { ...common, flavor: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', maxTokensField: 'max_completion_tokens' },
  ollama: { ...common, flavor: 'ollama', label: 'Ollama', baseUrl: 'http://localhost:11434/v1', needsKey: false, defaultContextWindow: 8192 },
  lmstudio: { ...common, flavor: 'lmstudio', label: 'LM Studio', baseUrl: 'http://localhost:1234/v1', needsKey: false, reasoningParam: 'none', defaultContextWindow: 8192 },
  openrouter: { ...common, flavor: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', reasoningParam: 'openrouter' },
  deepseek: { ...common, flavor: 'deepseek', label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', reasoningParam: 'none' },
  groq: { ...common, flavor: 'groq', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', defaultContextWindow: 131_072 },
  custom: { ...common, flavor: 'custom', label: 'OpenAI-compatible server', baseUrl: undefined, needsKey: false, defaultContextWindow: 32_768 },
};

/**
 * The preset for a flavor name, forgiving of case and separators ("LM Studio", "lm-studio"). An unknown or
 * missing flavor gets the plain OpenAI-compatible behaviour of "custom", so a typo never breaks a session.
 */
export function resolvePreset(flavor: string | undefined): OpenAiCompatiblePreset {
  const key = (flavor ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  return OPENAI_COMPATIBLE_PRESETS[key] ?? OPENAI_COMPATIBLE_PRESETS.custom;
}
