// A provider request carries the whole conversation, the system prompt and the tools, and each turn's
// request is the last one plus a few messages. Main and the provider's plugin process each keep the last
// few requests (the same ones: main records what it sends, the plugin what it receives, on the one ordered
// pipe), so a request can say "the system prompt, tools and first N messages of stream S, then these"
// instead of sending them all again.

/** What a request builds on: the first `keep` messages of the request stream `streamId` sent, and its system prompt and tools when marked. */
export interface RequestBase {
  streamId: string;
  keep: number;
  systemPrompt?: true;
  tools?: true;
}

/** The parts of a provider request that are kept. */
export interface SentRequest {
  systemPrompt: string;
  tools: readonly unknown[];
  messages: readonly unknown[];
}

/** How many requests each end keeps. */
export const SENT_REQUESTS_KEPT = 8;

/** Why a plugin process refuses a request that builds on one it does not hold; main then sends it whole. */
export const MISSING_MESSAGES = 'The provider process no longer holds the earlier request this one builds on.';

/**
 * The last `size` requests, by stream id, oldest first. Main calls `encode` as it sends a request, the
 * plugin process `decode` as it receives one; both evict the same way, and the plugin only ever holds
 * requests main sent, so a request main builds on is held on the other end unless a message was lost on
 * the way (then `decode` throws MISSING_MESSAGES and main sends the request whole).
 */
export class SentRequests {
  readonly #requests = new Map<string, SentRequest>();
  readonly #size: number;

  constructor(size: number = SENT_REQUESTS_KEPT) {
    this.#size = size;
  }

  /**
   * Main's side: what to send for `request` (the messages after the longest prefix a kept request shares
   * with it; its system prompt and tools left empty when they are that request's) and what it builds on;
   * everything when `whole`. Records `request` under `streamId`.
   */
  encode(streamId: string, request: SentRequest, whole = false): { request: SentRequest; base?: RequestBase } {
    let best: { id: string; kept: SentRequest; keep: number } | null = null;
    for (const [id, kept] of whole ? [] : [...this.#requests].reverse()) {
      const keep = sharedPrefix(kept.messages, request.messages);
      if (!best || keep > best.keep) best = { id, kept, keep };
      // A request this one wholly extends (the usual next turn) is as good as any older one.
      if (keep === kept.messages.length || keep === request.messages.length) break;
    }
    // A copy of the list: a caller that adds to its own list after sending must not change what was sent.
    this.#remember(streamId, { ...request, messages: [...request.messages] });
    if (!best) return { request };
    const base: RequestBase = { streamId: best.id, keep: best.keep };
    const sent: SentRequest = { ...request, messages: request.messages.slice(best.keep) };
    if (best.kept.systemPrompt === request.systemPrompt) {
      base.systemPrompt = true;
      sent.systemPrompt = '';
    }
    if (sameData(best.kept.tools, request.tools)) {
      base.tools = true;
      sent.tools = [];
    }
    return base.keep > 0 || base.systemPrompt || base.tools ? { request: sent, base } : { request };
  }

  /**
   * The plugin's side: the whole request, rebuilt from what came and the kept request it builds on;
   * records it under `streamId`. What is kept is frozen: later requests build on it, so a provider must
   * not change its request. Throws MISSING_MESSAGES when the request named is not held (or is shorter).
   */
  decode(streamId: string, sent: SentRequest, base: RequestBase | undefined): SentRequest {
    deepFreeze(sent.messages);
    deepFreeze(sent.tools);
    let full = sent;
    if (base !== undefined) {
      const kept = this.#requests.get(base.streamId);
      if (!kept || !Number.isInteger(base.keep) || base.keep < 0 || base.keep > kept.messages.length) throw new Error(MISSING_MESSAGES);
      full = {
        systemPrompt: base.systemPrompt === true ? kept.systemPrompt : sent.systemPrompt,
        tools: base.tools === true ? kept.tools : sent.tools,
        messages: base.keep === 0 ? sent.messages : [...kept.messages.slice(0, base.keep), ...sent.messages],
      };
    }
    this.#remember(streamId, full);
    return full;
  }

  #remember(streamId: string, request: SentRequest): void {
    this.#requests.delete(streamId);
    this.#requests.set(streamId, { systemPrompt: request.systemPrompt, tools: request.tools, messages: request.messages });
    while (this.#requests.size > this.#size) this.#requests.delete(this.#requests.keys().next().value!);
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

/** Freezes `value` and every object inside it (one already frozen is taken as frozen throughout); returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
