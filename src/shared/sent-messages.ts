// A provider request carries the whole conversation, and each turn's conversation is the last one plus a
// few messages. Main and the provider's plugin process each keep the message lists of the last few requests
// (the same lists: main records what it sends, the plugin what it receives, on the one ordered pipe), so a
// request can say "the first N messages of stream S, then these" instead of sending them all again.

/** Where a request's messages start: the first `keep` messages of the request that `streamId` sent. */
export interface MessagesFrom {
  streamId: string;
  keep: number;
}

/** How many requests' message lists each end keeps. */
export const SENT_MESSAGES_KEPT = 8;

/** Why a plugin process refuses a request that builds on messages it does not hold; main then sends them all. */
export const MISSING_MESSAGES = 'The provider process no longer holds the earlier messages this request builds on.';

/**
 * The message lists of the last `size` requests, by stream id, oldest first. Main calls `encode` as it
 * sends a request, the plugin process `decode` as it receives one; both evict the same way, and the plugin
 * only ever holds lists main sent, so a list main builds on is held on the other end unless a message was
 * lost on the way (then `decode` throws MISSING_MESSAGES and main sends the request whole).
 */
export class SentMessages {
  readonly #lists = new Map<string, readonly unknown[]>();
  readonly #size: number;

  constructor(size: number = SENT_MESSAGES_KEPT) {
    this.#size = size;
  }

  /**
   * Main's side: the messages to send for `messages` (those after the longest prefix a kept list shares
   * with them; all of them when `whole`) and where they start; records `messages` under `streamId`.
   */
  encode(streamId: string, messages: readonly unknown[], whole = false): { messages: readonly unknown[]; from?: MessagesFrom } {
    let best: MessagesFrom | null = null;
    for (const [id, list] of whole ? [] : [...this.#lists].reverse()) {
      const keep = sharedPrefix(list, messages);
      if (keep > (best?.keep ?? 0)) best = { streamId: id, keep };
      // A list this request wholly extends (the usual next turn) is as good as any older one.
      if (keep === list.length || keep === messages.length) break;
    }
    this.#remember(streamId, messages);
    return best ? { messages: messages.slice(best.keep), from: best } : { messages };
  }

  /**
   * The plugin's side: the request's whole message list, rebuilt from what came and the kept list it names;
   * records it under `streamId`. The messages are frozen: they are kept for later requests, so a provider
   * must not change them. Throws MISSING_MESSAGES when the list named is not held (or is shorter).
   */
  decode(streamId: string, messages: readonly unknown[], from: MessagesFrom | undefined): readonly unknown[] {
    for (const m of messages) deepFreeze(m);
    let full: readonly unknown[] = messages;
    if (from !== undefined) {
      const base = this.#lists.get(from.streamId);
      if (!base || !Number.isInteger(from.keep) || from.keep < 0 || from.keep > base.length) throw new Error(MISSING_MESSAGES);
      full = [...base.slice(0, from.keep), ...messages];
    }
    this.#remember(streamId, full);
    return full;
  }

  #remember(streamId: string, messages: readonly unknown[]): void {
    this.#lists.delete(streamId);
    this.#lists.set(streamId, messages);
    while (this.#lists.size > this.#size) this.#lists.delete(this.#lists.keys().next().value!);
  }
}

/** How many leading messages two lists share, compared as JSON would carry them. */
function sharedPrefix(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && sameData(a[i], b[i])) i++;
  return i;
}

/**
 * Equal as JSON: the same primitives, arrays element by element, objects key by key where a key whose
 * value is undefined counts as absent. Anything else (a function, a class instance) is never equal.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key in ra) {
    if (!Object.hasOwn(ra, key) || ra[key] === undefined) continue;
    if (!Object.hasOwn(rb, key) || !sameData(ra[key], rb[key])) return false;
    count++;
  }
  for (const key in rb) if (Object.hasOwn(rb, key) && rb[key] !== undefined) count--;
  return count === 0;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
