import type { ProviderErrorKind, ProviderEvent, ProviderRequest } from '../../shared/providers/index.ts';
import type { AssistantMessage } from '../../shared/sessions/index.ts';
import type { ProviderContribution } from '../sdk/index.ts';

/** Provider events are sent in batches of at most this many (or whatever one turn of the loop produced). */
export const PROVIDER_BATCH = 256;
/**
 * A stream's `start` (which carries nothing main shows) waits this long for the next event to go with it:
 * the headers come a moment before the body, and a message of its own would wake main once more per request.
 */
export const START_HOLD_MS = 20;

/**
 * Runs one provider stream and hands its events to `sendBatch` in batches, ending with exactly one `done`
 * or `error` event; never throws (a missing provider, a throw or a stream without a result become an
 * `error` event). Every event is handed over before the returned promise resolves: main relies on that order.
 */
export async function streamProvider(
  provider: ProviderContribution | undefined,
  providerId: string,
  request: ProviderRequest,
  signal: AbortSignal,
  sendBatch: (events: ProviderEvent[]) => void,
): Promise<void> {
  let batch: ProviderEvent[] = [];
  /** 'soon': a flush at the next turn of the loop; a timer: a lone `start` held (START_HOLD_MS). */
  let scheduled: 'soon' | ReturnType<typeof setTimeout> | null = null;
  const flush = (): void => {
    if (scheduled !== null && scheduled !== 'soon') clearTimeout(scheduled);
    scheduled = null;
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    sendBatch(events);
  };
  // Events go out on the next turn of the loop, or at once when many wait (then the loop gets a turn, so the
  // pipe is written before the stream goes on); a lone `start` waits for company, START_HOLD_MS at most.
  const send = async (event: ProviderEvent) => {
    batch.push(event);
    if (batch.length >= PROVIDER_BATCH) {
      flush();
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else if (event.type === 'start' && batch.length === 1) {
      scheduled = setTimeout(flush, START_HOLD_MS);
    } else if (scheduled !== 'soon') {
      if (scheduled !== null) clearTimeout(scheduled);
      scheduled = 'soon';
      setImmediate(flush);
    }
  };
  const fail = (kind: ProviderErrorKind, message: string) =>
    send({ type: 'error', kind, message: errorMessage(request, providerId, message, kind === 'aborted') });
  if (!provider) {
    await fail('unknown', `This plugin has no provider '${providerId}'.`);
    return flush();
  }
  let ended = false;
  try {
    for await (const event of provider.stream(request, signal)) {
      if (ended) break;
      await send(event);
      if (event.type === 'done' || event.type === 'error') ended = true;
    }
    if (!ended)
      await fail(
        signal.aborted ? 'aborted' : 'bad_stream',
        signal.aborted ? 'The request was aborted.' : `The provider '${providerId}' ended its stream without a result.`,
      );
  } catch (e) {
    if (!ended) await fail(signal.aborted ? 'aborted' : 'unknown', `The provider '${providerId}' failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  flush();
}

function errorMessage(request: ProviderRequest, providerId: string, message: string, aborted: boolean): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    provider: providerId,
    model: request.model?.id,
    stopReason: aborted ? 'aborted' : 'error',
    errorMessage: message,
    timestamp: Date.now(),
  };
}
