// Outgoing side of the plugin pipe's newline-delimited framing: lines are gathered and written together,
// once per turn of the event loop, instead of one write (one system call, one wake-up of the reader) each.

export interface LineBatcher {
  /** Queues one line (without its newline); it is written, in order, at the next flush. */
  push(line: string): void;
  /** Writes everything queued now, as one chunk. */
  flush(): void;
  /** Forgets what is queued (the pipe is gone). */
  clear(): void;
  /** Characters queued and not yet written (newlines included): a lower bound on the bytes they take. */
  readonly pendingChars: number;
}

/** A batch this large is written at once rather than at the end of the turn, so no chunk grows without bound. */
export const MAX_BATCH_CHARS = 1024 * 1024;

/**
 * Gathers lines for `write`. The first line of a batch asks `schedule` for a flush (the plugin pipe's ends
 * pass `setImmediate`: after everything the current turn of the loop does, before it waits for I/O again),
 * so a burst of messages (events, replies, provider batches) costs one write. A batch that reaches
 * `maxBatchChars` is written at once. `write` must not throw.
 */
export function createLineBatcher(write: (chunk: string) => void, schedule: (flush: () => void) => void, maxBatchChars: number = MAX_BATCH_CHARS): LineBatcher {
  let lines: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (lines.length === 0) return;
    const chunk = lines.length === 1 ? lines[0]! : lines.join('');
    lines = [];
    chars = 0;
    write(chunk);
  };
  return {
    push(line) {
      lines.push(`${line}\n`);
      chars += line.length + 1;
      if (chars >= maxBatchChars) flush();
      else if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
    clear() {
      lines = [];
      chars = 0;
    },
    get pendingChars() {
      return chars;
    },
  };
}
