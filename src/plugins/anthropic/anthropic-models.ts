import type { ModelInfo } from '../../shared/providers/index.ts';
import { joinUrl, redactSecret, resolveSeams, sendWithRetry, type ModelListResult, type ProviderConfig, type ProviderSeams } from '../provider-common/index.ts';
import { ANTHROPIC_BASE_URL, anthropicConfigProblem, anthropicHeaders } from './anthropic-stream.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const posInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/** Claude models since 3.7 can think; older ones cannot. */
const THINKING_MODEL = /claude-(3-7|(opus|sonnet|haiku)-[4-9]|[4-9])/i;
const DEFAULT_CONTEXT_WINDOW = 200_000;

/** One entry of Anthropic's model list; the API gives no prices, so pricing stays at its zero default. */
export function anthropicModelInfo(raw: unknown): ModelInfo | undefined {
  const m = obj(raw);
  if (typeof m.id !== 'string' || m.id === '') return undefined;
  const maxOutputTokens = posInt(m.max_tokens) ?? posInt(m.max_output_tokens);
  return {
    id: m.id,
    name: typeof m.display_name === 'string' && m.display_name !== '' ? m.display_name : m.id,
    contextWindow: posInt(m.max_input_tokens) ?? posInt(m.context_window) ?? DEFAULT_CONTEXT_WINDOW,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
    reasoning: THINKING_MODEL.test(m.id),
    pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

/** Lists the models (GET {baseUrl}/v1/models) and doubles as the connection test. Never throws. */
export async function listAnthropicModels(config: ProviderConfig, seams: ProviderSeams = {}, signal?: AbortSignal): Promise<ModelListResult> {
  const problem = anthropicConfigProblem(config);
  if (problem) return { ok: false, ...problem };
  const resolved = resolveSeams({ ...seams, retry: { maxRetries: 0, ...seams.retry } });
  const url = joinUrl(config.baseUrl || ANTHROPIC_BASE_URL, 'v1/models?limit=1000');
  const sent = await sendWithRetry({
    label: 'Anthropic',
    url,
    init: { method: 'GET', headers: anthropicHeaders(config, 'application/json') },
    signal: signal ?? new AbortController().signal,
    seams: resolved,
  });
  if (!sent.ok) return { ok: false, kind: sent.failure.kind, message: redactSecret(sent.failure.message, config.apiKey) };
  let body: unknown;
  try {
    body = await sent.response.json();
  } catch {
    return { ok: false, kind: 'bad_stream', message: 'Anthropic answered the model list with something that is not JSON. Check the base URL.' };
  }
  const data = obj(body).data;
  if (!Array.isArray(data))
    return { ok: false, kind: 'bad_stream', message: 'Anthropic answered without a model list. Check the base URL (it should not end in /v1).' };
  return { ok: true, models: data.flatMap((m) => anthropicModelInfo(m) ?? []) };
}
