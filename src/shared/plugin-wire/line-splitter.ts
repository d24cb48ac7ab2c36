// Newline-delimited framing for the plugin pipe, on bytes (both ends use it; shared code has no Buffer).
// JSON never contains a raw newline, so one message is one line.

export interface LineSplitter {
  /** Feeds bytes as they arrive; complete lines go to `onLine` in order, without their newline. */
  push(chunk: Uint8Array): void;
}

/**
 * Splits a byte stream into lines of at most `maxLineBytes`. A longer line calls `onOverflow` once, as soon
 * as it is known (without buffering the rest of it), and nothing is delivered afterwards: the framing can
 * no longer be trusted.
 */
export function createLineSplitter(maxLineBytes: number, onLine: (line: Uint8Array) => void, onOverflow: (bytes: number) => void): LineSplitter {
  let parts: Uint8Array[] = [];
  let pending = 0;
  let broken = false;
  const overflow = (bytes: number) => {
    broken = true;
    parts = [];
    pending = 0;
    onOverflow(bytes);
  };
  return {
    push(chunk) {
      if (broken) return;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        if (nl === -1) break;
        const length = pending + (nl - start);
        if (length > maxLineBytes) return overflow(length);
        let line: Uint8Array;
        if (parts.length === 0) line = chunk.subarray(start, nl);
        else {
          line = new Uint8Array(length);
          let at = 0;
          for (const p of parts) {
            line.set(p, at);
            at += p.length;
          }
          line.set(chunk.subarray(start, nl), at);
          parts = [];
          pending = 0;
        }
        start = nl + 1;
        if (line.length > 0) onLine(line);
        if (broken) return;
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        if (pending + rest.length > maxLineBytes) return overflow(pending + rest.length);
        parts.push(rest);
        pending += rest.length;
      }
    },
  };
}
