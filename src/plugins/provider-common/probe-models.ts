import {
  MAX_PROBE_MESSAGE_CHARS,
  MAX_PROBE_MODEL_ID_CHARS,
  MAX_PROBE_MODELS,
  type ProviderProbeRequest,
  type ProviderProbeResult,
} from '../../shared/plugins/index.ts';
import { redactSecret } from '../../shared/providers/index.ts';
import type { ModelListResult, ProviderConfig, ProviderSeams } from './provider-config.ts';
import { displayUrl } from './provider-error.ts';

/** A dialect's model listing: never throws, gives up when `signal` aborts. */
export type ListModels = (config: ProviderConfig, seams: ProviderSeams, signal: AbortSignal) => Promise<ModelListResult>;

/**
 * The connection test of a provider plugin: the dialect's own model listing, as a sentence and a list of
 * ids for the first-run screen. Never throws. Whatever the server or the HTTP library put in their answers,
 * the key is not in the result: every id and the message are redacted, the message is capped.
 */
export async function probeModels(
  listModels: ListModels,
  request: ProviderProbeRequest,
  signal: AbortSignal,
  seams: ProviderSeams = {},
): Promise<ProviderProbeResult> {
  const result = await answer(listModels, request, signal, seams);
  const message = redactSecret(result.message, request.apiKey);
  return {
    ok: result.ok,
    models: result.models,
    message: message.length > MAX_PROBE_MESSAGE_CHARS ? `${message.slice(0, MAX_PROBE_MESSAGE_CHARS - 1)}…` : message,
  };
}

async function answer(listModels: ListModels, request: ProviderProbeRequest, signal: AbortSignal, seams: ProviderSeams): Promise<ProviderProbeResult> {
  let listed: ModelListResult;
  try {
    listed = await listModels({ baseUrl: request.baseUrl, flavor: request.flavor, ...(request.apiKey ? { apiKey: request.apiKey } : {}) }, seams, signal);
  } catch (e) {
    // A listing must not throw; one that does still gets a sentence, never a rejected call.
    return { ok: false, models: [], message: `The connection test failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!listed.ok) {
    if (signal.aborted && isTimeout(signal.reason)) {
      return { ok: false, models: [], message: `${displayUrl(request.baseUrl)} did not answer in time. Check the address, and that the server is running.` };
    }
    return { ok: false, models: [], message: listed.message };
  }
  // An id the key was cut out of is still listed, redacted: the user sees that the server echoes it.
  const redacted = listed.models.map((m) => redactSecret(m.id, request.apiKey)).filter((id) => id !== '' && id.length <= MAX_PROBE_MODEL_ID_CHARS);
  const ids = [...new Set(redacted)].slice(0, MAX_PROBE_MODELS);
  if (ids.length === 0) return { ok: true, models: [], message: 'Connected, but the server lists no models; type the model name yourself.' };
  return { ok: true, models: ids, message: `Connected: ${ids.length} model${ids.length === 1 ? '' : 's'} available.` };
}

const isTimeout = (reason: unknown): boolean => reason instanceof Error && reason.name === 'TimeoutError';
