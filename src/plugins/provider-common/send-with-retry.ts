import type { ResolvedSeams } from './provider-config.ts';
import { causeCode, describeCause, httpFailure, isContextOverflowText, networkFailure, type ProviderFailure } from './provider-error.ts';

export interface SendRequest {
  label: string;
  url: string;
  init: RequestInit;
  signal: AbortSignal;
  seams: ResolvedSeams;
  /** Told, in a sentence for the user, of each wait of TOLD_WAIT_MS or more before a retry (what failed, how long, which retry). */
  onRetry?: (message: string) => void;
}

/**
 * A refused connection is a definite answer (nothing listens at that address: the server is not running, or
 * the port is wrong), so it is asked again once, soon, in case the server was just restarting, instead of
 * through the whole backoff the user would wait out in silence.
 */
export const REFUSED_RETRIES = 1;
export const REFUSED_RETRY_DELAY_MS = 250;
/** A wait shorter than this is not told: it is over before anyone could read about it. */
export const TOLD_WAIT_MS = 1000;

export type SendResult = { ok: true; response: Response; retries: number } | { ok: false; failure: ProviderFailure; retries: number };

/** The wait a 429/503 asks for, in ms: `retry-after-ms`, then `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function formatWait(ms: number): string {
  if (ms < 90_000) return `${Math.ceil(ms / 1000)} s`;
  if (ms < 90 * 60_000) return `${Math.ceil(ms / 60_000)} min`;
  return `${Math.ceil(ms / 3_600_000)} h`;
}

const ABORTED: ProviderFailure = { kind: 'aborted', message: 'The request was stopped before it finished.' };

/**
 * Sends one request, retrying 429, 5xx and network errors with exponential backoff (Retry-After honoured;
 * a wait beyond `maxDelayMs` ends the call at once; a refused connection is retried once, after
 * REFUSED_RETRY_DELAY_MS). Other statuses are not retried. Never throws; an ok result carries a response
 * whose body is still unread.
 */
export async function sendWithRetry(req: SendRequest): Promise<SendResult> {
  const { seams, signal, label, url } = req;
  const { maxRetries, baseDelayMs, maxDelayMs } = seams.retry;
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return { ok: false, failure: ABORTED, retries: attempt };
    let response: Response;
    try {
      response = await seams.fetch(url, { ...req.init, signal });
    } catch (error) {
      if (signal.aborted) return { ok: false, failure: ABORTED, retries: attempt };
      const refused = causeCode(error) === 'ECONNREFUSED';
      const retries = refused ? Math.min(maxRetries, REFUSED_RETRIES) : maxRetries;
      if (attempt >= retries) {
        const failure = networkFailure(label, url, error);
        if (attempt > 0) failure.message = failure.message.replace(/\. Check/, ` (after ${attempt} ${attempt === 1 ? 'retry' : 'retries'}). Check`);
        return { ok: false, failure, retries: attempt };
      }
      const wait = refused ? Math.min(REFUSED_RETRY_DELAY_MS, baseDelayMs) : Math.min(baseDelayMs * 2 ** attempt, maxDelayMs);
      if (wait >= TOLD_WAIT_MS)
        req.onRetry?.(`Could not reach ${label} (${describeCause(error)}); trying again in ${formatWait(wait)} (retry ${attempt + 1} of ${retries}).`);
      await seams.sleep(wait, signal);
      continue;
    }
    if (response.ok) return { ok: true, response, retries: attempt };

    let body = '';
    try {
      body = await response.text();
    } catch {
      if (signal.aborted) return { ok: false, failure: ABORTED, retries: attempt };
    }
    const retryable = (response.status === 429 || response.status >= 500) && !isContextOverflowText(body) && !/insufficient_quota/.test(body);
    if (!retryable || attempt >= maxRetries) return { ok: false, failure: httpFailure(label, response.status, body, attempt), retries: attempt };
    const asked = retryAfterMs(response.headers, seams.now());
    if (asked !== undefined && asked > maxDelayMs) {
      const failure = httpFailure(label, response.status, body, attempt);
      failure.message += ` It asked to retry in ${formatWait(asked)}, longer than Amber waits on its own.`;
      return { ok: false, failure, retries: attempt };
    }
    const wait = asked ?? Math.min(baseDelayMs * 2 ** attempt, maxDelayMs);
    if (wait >= TOLD_WAIT_MS)
      req.onRetry?.(`${label} answered HTTP ${response.status}; trying again in ${formatWait(wait)} (retry ${attempt + 1} of ${maxRetries}).`);
    await seams.sleep(wait, signal);
  }
}
