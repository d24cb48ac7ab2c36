import { presetById } from '../../shared/providers/index.ts';

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

/** Where each server lives, its name and whether it needs a key: one list, shared with the first-run screen. */
function where(id: string): Pick<OpenAiCompatiblePreset, 'flavor' | 'label' | 'baseUrl' | 'needsKey' | 'defaultContextWindow'> {
  const shared = presetById(id);
  return { flavor: shared.id, label: shared.name, baseUrl: shared.baseUrl || undefined, needsKey: shared.needsKey, defaultContextWindow: shared.contextWindow };
}

export const OPENAI_COMPATIBLE_PRESETS: Readonly<Record<string, OpenAiCompatiblePreset>> = {
  openai: { ...common, ...where('openai'), maxTokensField: 'max_completion_tokens' },
  ollama: { ...common, ...where('ollama') },
  lmstudio: { ...common, ...where('lmstudio'), reasoningParam: 'none' },
  openrouter: { ...common, ...where('openrouter'), reasoningParam: 'openrouter' },
  deepseek: { ...common, ...where('deepseek'), reasoningParam: 'none' },
  groq: { ...common, ...where('groq') },
  custom: { ...common, ...where('custom'), label: 'OpenAI-compatible server' },
};

/**
 * The preset for a flavor name, forgiving of case and separators ("LM Studio", "lm-studio"). An unknown or
 * missing flavor gets the plain OpenAI-compatible behaviour of "custom", so a typo never breaks a session.
 */
export function resolvePreset(flavor: string | undefined): OpenAiCompatiblePreset {
  const key = (flavor ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  return OPENAI_COMPATIBLE_PRESETS[key] ?? OPENAI_COMPATIBLE_PRESETS.custom;
}
