import type { LogLevel } from '../../../shared/plugins/index.ts';

export interface PluginLogLine {
  time: number;
  level: LogLevel;
  message: string;
}

/** What main keeps of one plugin's log (its log calls, stdout and stderr), counted as below. */
export const MAX_PLUGIN_LOG_BYTES = 256 * 1024;
/** The longest line kept; a longer one is cut and ends with `…`. */
export const MAX_PLUGIN_LOG_LINE_CHARS = 4096;
/** What a line costs beside its text (the line object and its slot), so that many tiny lines are bounded too. */
const LINE_COST = 64;

/** A line's cost: two bytes a character (what a string may take in memory at most) and the fixed part. */
const cost = (line: PluginLogLine): number => 2 * line.message.length + LINE_COST;

/**
 * The newest lines of one plugin's log, within MAX_PLUGIN_LOG_BYTES: the oldest go first. Every line kept
 * is a copy of its own, never a slice of the text it came in (V8 would keep that whole text alive behind a
 * short slice: a plugin sending megabyte messages would hold megabytes per line).
 */
export class PluginLogRing {
  readonly #maxBytes: number;
  /** Lines before `#head` are gone; the list is compacted when they are half of it. */
  #lines: PluginLogLine[] = [];
  #head = 0;
  #bytes = 0;

  constructor(maxBytes: number = MAX_PLUGIN_LOG_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** Keeps `message` (cut to MAX_PLUGIN_LOG_LINE_CHARS) as the newest line and returns the line kept. */
  push(time: number, level: LogLevel, message: string): PluginLogLine {
    const cut = message.length > MAX_PLUGIN_LOG_LINE_CHARS ? `${message.slice(0, MAX_PLUGIN_LOG_LINE_CHARS)}…` : message;
    const line: PluginLogLine = { time, level, message: ownCopy(cut) };
    this.#lines.push(line);
    this.#bytes += cost(line);
    while (this.#bytes > this.#maxBytes && this.#head < this.#lines.length - 1) {
      this.#bytes -= cost(this.#lines[this.#head]!);
      this.#lines[this.#head++] = GONE;
    }
    // A fresh array, so that neither the lines gone nor a flood's worth of slots stay behind.
    if (this.#head > 64 && this.#head * 2 > this.#lines.length) {
      this.#lines = this.#lines.slice(this.#head);
      this.#head = 0;
    }
    return line;
  }

  /** The lines kept, oldest first (a copy of the list). */
  lines(): PluginLogLine[] {
    return this.#lines.slice(this.#head);
  }

  /** What the lines kept cost, as counted against the limit. */
  get bytes(): number {
    return this.#bytes;
  }
}

const GONE: PluginLogLine = { time: 0, level: 'info', message: '' };

/**
 * A flat string of its own with the same text (lone surrogates become U+FFFD). A string made by slice or
 * concatenation may point into the one it was cut from; a decoded one never does.
 */
function ownCopy(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}
