import type { ModelInfo } from '../../shared/providers/index.ts';
import { joinUrl, resolveSeams, sendWithRetry, type ModelListResult, type ProviderConfig, type ProviderSeams } from '../provider-common/index.ts';
import { redactSecret } from '../provider-common/index.ts';
import { resolvePreset } from './openai-compatible-presets.ts';
import { openAiConfigProblem, openAiHeaders } from './openai-compatible-stream.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const posInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
/** OpenRouter prices are dollar strings per token; ModelInfo wants dollars per million tokens. */
const perMillion = (v: unknown): number => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n * 1e6 : 0;
};
const REASONING_ID = /(^|[/:-])(o\d|gpt-5|deepseek-reasoner|r1|qwq|qwen3|gpt-oss)|reason|think/i;

/** One entry of a `/models` list as a ModelInfo, with defaults where the server says nothing. */
export function openAiModelInfo(raw: unknown, defaultContextWindow: number): ModelInfo | undefined {
  const m = obj(raw);
  if (typeof m.id !== 'string' || m.id === '') return undefined;
  const pricing = obj(m.pricing);
  const top = obj(m.top_provider);
  const params = Array.isArray(m.supported_parameters) ? m.supported_parameters : undefined;
  const maxOutputTokens = posInt(top.max_completion_tokens) ?? posInt(m.max_output_tokens);
  return {
    id: m.id,
    name: typeof m.name === 'string' && m.name !== '' ? m.name : m.id,
    contextWindow: posInt(m.context_length) ?? posInt(m.context_window) ?? posInt(m.max_context_length) ?? posInt(top.context_length) ?? defaultContextWindow,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
    reasoning: params ? params.includes('reasoning') || params.includes('include_reasoning') : REASONING_ID.test(m.id),
    pricing: {
      input: perMillion(pricing.prompt),
      output: perMillion(pricing.completion),
      cacheRead: perMillion(pricing.input_cache_read),
      cacheWrite: perMillion(pricing.input_cache_write),
    },
  };
}

/**
 * Lists the server's models (GET {baseUrl}/models; Ollama and LM Studio answer it too) and doubles as the
 * connection test. Never throws. Retries only when asked to through `seams.retry` (default: none).
 */
export async function listOpenAiCompatibleModels(config: ProviderConfig, seams: ProviderSeams = {}, signal?: AbortSignal): Promise<ModelListResult> {
  const preset = resolvePreset(config.flavor);
  const problem = openAiConfigProblem(config, preset);
  if (problem) return { ok: false, ...problem };
  const resolved = resolveSeams({ ...seams, retry: { maxRetries: 0, ...seams.retry } });
  const url = joinUrl(config.baseUrl || (preset.baseUrl as string), 'models');
  const sent = await sendWithRetry({
    label: preset.label,
    url,
    init: { method: 'GET', headers: openAiHeaders(config, 'application/json') },
    signal: signal ?? new AbortController().signal,
    seams: resolved,
  });
  if (!sent.ok) return { ok: false, kind: sent.failure.kind, message: redactSecret(sent.failure.message, config.apiKey) };
  let body: unknown;
  try {
    body = await sent.response.json();
  } catch {
    return { ok: false, kind: 'bad_stream', message: `${preset.label} answered ${url} with something that is not JSON. Check the base URL.` };
  }
  const data = obj(body).data ?? obj(body).models;
  if (!Array.isArray(data)) {
    return { ok: false, kind: 'bad_stream', message: `${preset.label} answered ${url} without a model list. Check the base URL (it usually ends in /v1).` };
  }
  const models = data.flatMap((m) => openAiModelInfo(m, preset.defaultContextWindow) ?? []);
  return { ok: true, models };
}
