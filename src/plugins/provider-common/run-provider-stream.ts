import type { EventSourceMessage } from 'eventsource-parser';
import type { AbortSignalLike, ProviderErrorKind, ProviderEvent } from '../../shared/providers/index.ts';
import type { AssistantMessageBuilder } from './assistant-message-builder.ts';
import { IdleWatchdog } from './idle-watchdog.ts';
import type { ResolvedSeams } from './provider-config.ts';
import { describeCause, errorBodyMessage, isContextOverflowText } from './provider-error.ts';
import { readSse, type SseLeftovers } from './read-sse.ts';
import { sendWithRetry } from './send-with-retry.ts';

/** Thrown by a dialect's event handlers to end the stream with a typed error; caught here, never escapes. */
export class StreamFailure extends Error {
  readonly kind: ProviderErrorKind;
  constructor(kind: ProviderErrorKind, message: string) {
    super(message);
    this.name = 'StreamFailure';
    this.kind = kind;
  }
}

/** Parses one event's JSON data, or fails the stream with a sentence that shows what arrived. */
export function parseEventJson(label: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    const snippet = data.length > 120 ? `${data.slice(0, 120)}…` : data;
    throw new StreamFailure(
      'bad_stream',
      `${label} sent a malformed stream event that is not JSON: ${snippet}. The server may not be OpenAI- or Anthropic-compatible, or a proxy altered the stream; try again or check the base URL.`,
    );
  }
}

/** What a dialect plugs into the shared request/stream/finish cycle. */
export interface DialectStream {
  label: string;
  apiKey: string | undefined;
  url: string;
  init: RequestInit;
  seams: ResolvedSeams;
  builder: AssistantMessageBuilder;
  /** Maps one SSE event to provider events; throws StreamFailure for an error the server sent. */
  onEvent(event: EventSourceMessage): ProviderEvent[];
  /** Maps a whole (non-streamed) JSON reply, for servers that ignore `stream: true`. */
  onJson(body: unknown): ProviderEvent[];
  /** True once the wire said nothing more will come ([DONE], message_stop): reading stops there. */
  finished(): boolean;
  /** True when the body may end here without being a cut connection (e.g. a finish reason was seen). */
  closedCleanly(): boolean;
  /** Releases deltas a dialect held back (a possibly split tag); called once, before the final event. */
  flush?(): ProviderEvent[];
}

/** Shared by handlers for events that map to nothing; never mutated. */
export const NO_EVENTS: ProviderEvent[] = [];

/**
 * The shared life of one provider call: start, send with retries, frame the body, map events, finish with
 * exactly one `done` or `error`. Never throws. Aborting `signal` cancels the HTTP request and ends with an
 * `aborted` error that keeps the partial reply; so does a consumer that stops iterating.
 */
export async function* runProviderStream(d: DialectStream, signal: AbortSignalLike): AsyncGenerator<ProviderEvent> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const fail = (kind: ProviderErrorKind, message: string) => d.builder.error(kind, message, d.apiKey);
  let idle = false;
  let watchdog: IdleWatchdog | undefined;
  try {
    yield { type: 'start' };
    // Each wait before a retry is told as it starts (a notice), so the user is not left with a silent spinner.
    const notices: string[] = [];
    let told: (() => void) | null = null;
    const sending = sendWithRetry({
      label: d.label,
      url: d.url,
      init: d.init,
      signal: controller.signal,
      seams: d.seams,
      onRetry: (message) => {
        notices.push(message);
        told?.();
      },
    });
    let sent: Awaited<typeof sending> | undefined;
    while (sent === undefined) {
      const noticed = new Promise<undefined>((resolve) => {
        told = () => resolve(undefined);
      });
      sent = await Promise.race([sending, noticed]);
      told = null;
      for (const message of notices.splice(0)) yield { type: 'notice', message };
    }
    if (!sent.ok) {
      yield fail(sent.failure.kind, sent.failure.message);
      return;
    }
    const response = sent.response;
    const contentType = response.headers.get('content-type') ?? '';
    let terminal: ProviderEvent;
    try {
      if (contentType.includes('application/json')) {
        const body = parseEventJson(d.label, await response.text());
        for (const event of d.onJson(body)) yield event;
      } else if (contentType.includes('text/html')) {
        throw new StreamFailure(
          'bad_stream',
          `${d.label} answered with a web page instead of a stream. Check the base URL: it should point at the API (often ending in /v1).`,
        );
      } else if (!response.body) {
        throw new StreamFailure('bad_stream', `${d.label} answered with an empty body. Check the base URL.`);
      } else {
        const leftovers: SseLeftovers = { strayLines: [] };
        let count = 0;
        // Counts only time spent waiting for bytes, not time the consumer holds an event.
        watchdog = new IdleWatchdog(d.seams.idleTimeoutMs, () => {
          idle = true;
          controller.abort();
        });
        const dog = watchdog;
        for await (const sse of readSse(response.body, leftovers, () => dog.touch())) {
          // Events already framed are dropped once the call is aborted.
          if (controller.signal.aborted) throw new StreamFailure('aborted', 'aborted');
          count++;
          for (const event of d.onEvent(sse)) {
            dog.holding = true;
            yield event;
            dog.holding = false;
          }
          dog.touch();
          if (d.finished()) break;
        }
        if (!d.finished() && !d.closedCleanly()) throw incomplete(d.label, count, leftovers);
      }
      for (const event of d.flush?.() ?? NO_EVENTS) yield event;
      terminal = d.builder.done();
    } catch (error) {
      for (const event of d.flush?.() ?? NO_EVENTS) yield event;
      if (idle)
        terminal = fail(
          'network',
          `${d.label} sent nothing for ${d.seams.idleTimeoutMs < 1000 ? `${d.seams.idleTimeoutMs} ms` : `${Math.round(d.seams.idleTimeoutMs / 1000)} s`}, so the stream was cut. The partial reply is kept; try again.`,
        );
      else if (controller.signal.aborted) terminal = fail('aborted', 'The request was stopped before the reply finished; the partial reply is kept.');
      else if (error instanceof StreamFailure) terminal = fail(error.kind, error.message);
      else terminal = fail('network', `The connection to ${d.label} broke mid-reply: ${describeCause(error)}. The partial reply is kept; try again.`);
    }
    // The reply is over: stop watching before handing out the last event, whose consumer may never ask again.
    watchdog?.stop();
    yield terminal;
  } finally {
    watchdog?.stop();
    signal.removeEventListener('abort', onAbort);
    // Frees the connection when the reply ended early or the consumer stopped iterating.
    controller.abort();
  }
}

function incomplete(label: string, events: number, leftovers: SseLeftovers): StreamFailure {
  if (events === 0 && leftovers.strayLines.length > 0) {
    const text = leftovers.strayLines.join('\n');
    const said = errorBodyMessage(text).message;
    if (isContextOverflowText(said))
      return new StreamFailure('context_overflow', `The conversation is too long for the model's context window. ${label} said: ${said}.`);
    return new StreamFailure(
      'bad_stream',
      `${label} sent something that is not a server-sent event stream: ${said}. Check the base URL and that the server speaks this API.`,
    );
  }
  return new StreamFailure('network', `The connection to ${label} closed before the reply was complete. The partial reply is kept; try again.`);
}
