import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** What a response body held besides its events: lines that are not SSE at all (a JSON error, HTML, …). */
export interface SseLeftovers {
  strayLines: string[];
}

const MAX_BUFFER = 16 * 1024 * 1024;

/**
 * Frames a response body into server-sent events with eventsource-parser. Yields each event as soon as
 * its chunk is decoded; throws what the body stream throws (a cut connection), which callers turn into
 * error events. Lines that are not SSE fields are collected in `leftovers` so a caller can explain them.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  leftovers: SseLeftovers = { strayLines: [] },
  onBytes?: () => void,
): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({
    maxBufferSize: MAX_BUFFER,
    onEvent: (event) => {
      queue.push(event);
    },
    onError: (error) => {
      if (error.type === 'unknown-field' && leftovers.strayLines.length < 20) leftovers.strayLines.push(error.line ?? '');
      if (error.type === 'max-buffer-size-exceeded') throw error;
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onBytes?.();
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as EventSourceMessage;
    }
    const tail = decoder.decode();
    // An unterminated last event is still an event: servers that close without a final blank line exist.
    parser.feed(`${tail}\n\n`);
    while (queue.length > 0) yield queue.shift() as EventSourceMessage;
  } finally {
    reader.releaseLock();
  }
}
