import { MAX_TOOL_UPDATE_CHARS } from '../../shared/plugin-wire/index.ts';

/** A tool's progress text goes to main at most this often, batched. */
export const TOOL_UPDATE_INTERVAL_MS = 100;
/** Progress text streamed per tool call; past it one note is sent and the rest only reaches the result. */
export const TOOL_UPDATE_TOTAL_CHARS = 1024 * 1024;

/**
 * One tool call's `update(text)`: text is gathered and sent every TOOL_UPDATE_INTERVAL_MS (or sooner when
 * a batch fills), in order, one call at a time; past TOOL_UPDATE_TOTAL_CHARS a note ends the stream.
 * `close()` resolves once every part is sent, so no progress reaches main after the call's result.
 */
export class ToolUpdateStream {
  readonly #callId: string;
  readonly #send: (callId: string, text: string) => Promise<void>;
  #buffer = '';
  #sent = 0;
  #closed = false;
  #noted = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #chain = Promise.resolve();

  /** `send` delivers one part to main (a `$toolUpdate` call); parts are sent one after another, never together. */
  constructor(callId: string, send: (callId: string, text: string) => Promise<void>) {
    this.#callId = callId;
    this.#send = send;
  }

  /** The function handed to the tool; ignores anything after close, empty text and non-strings. */
  readonly update = (text: string): void => {
    if (this.#closed || typeof text !== 'string' || text === '' || this.#noted) return;
    const room = TOOL_UPDATE_TOTAL_CHARS - this.#sent;
    this.#buffer += text.slice(0, room);
    this.#sent += Math.min(text.length, room);
    if (text.length > room) {
      this.#buffer += '\n[Further output is not shown live; the result holds its end.]\n';
      this.#noted = true;
    }
    if (this.#buffer.length >= MAX_TOOL_UPDATE_CHARS / 2) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), TOOL_UPDATE_INTERVAL_MS);
  };

  async close(): Promise<void> {
    this.#closed = true;
    this.#flush();
    await this.#chain;
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    while (this.#buffer.length > 0) {
      const part = this.#buffer.slice(0, MAX_TOOL_UPDATE_CHARS);
      this.#buffer = this.#buffer.slice(part.length);
      this.#chain = this.#chain.then(() => this.#send(this.#callId, part)).catch(() => {});
    }
  }
}
