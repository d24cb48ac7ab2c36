import type { ModelInfo, ProviderErrorKind } from '../../shared/providers/index.ts';

/** How to reach one provider endpoint. The key is only ever sent in a header, never logged or shown. */
export interface ProviderConfig {
  /** Root of the API; a preset's default where omitted. */
  baseUrl?: string;
  apiKey?: string;
  /** Which preset/dialect variant; unknown values fall back to plain OpenAI-compatible behaviour. */
  flavor?: string;
  headers?: Record<string, string>;
}

export interface RetryOptions {
  /** Retries after the first attempt (429, 5xx and network errors only). */
  maxRetries: number;
  /** First backoff; doubled on each retry. */
  baseDelayMs: number;
  /** The longest wait we accept; a Retry-After beyond it ends the call at once with a rate-limit error. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** Seams a dialect takes as parameters, with defaults that talk to the real world. */
export interface ProviderSeams {
  fetch?: typeof globalThis.fetch;
  /** Epoch milliseconds; stamps messages and reads HTTP-date Retry-After values. */
  now?: () => number;
  /** Waits between retries; must resolve early (or reject) when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  retry?: Partial<RetryOptions>;
  /** Makes ids for tool calls a server sent without one. */
  newId?: () => string;
  /** A stream that sends nothing for this long after its headers is cut with a network error. */
  idleTimeoutMs?: number;
}

export interface ResolvedSeams {
  fetch: typeof globalThis.fetch;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  retry: RetryOptions;
  newId: () => string;
  idleTimeoutMs: number;
}

/** Long enough for a slow local model between tokens, short enough that a dead stream does not hang a run. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function resolveSeams(seams: ProviderSeams = {}): ResolvedSeams {
  return {
    fetch: seams.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    now: seams.now ?? Date.now,
    sleep: seams.sleep ?? abortableSleep,
    retry: { ...DEFAULT_RETRY, ...seams.retry },
    newId: seams.newId ?? (() => `call_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`),
    idleTimeoutMs: seams.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  };
}

/** Joins a base URL and a path without doubling or dropping the slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** What listing a provider's models gives: the models, or why the connection test failed. */
export type ModelListResult = { ok: true; models: ModelInfo[] } | { ok: false; kind: ProviderErrorKind; message: string };
