import { baseUrlSettingOf, type BalanceSource, failed, type WalletReading, keySettingOf } from './wallet-reading.ts';

/**
 * A non-2xx answer as a reading the user can act on. OpenRouter and DeepSeek both put a sentence in
 * `{ error: { message } }`; it is quoted (shortened) when present. `retryAfter` is the header's raw value.
 */
export function httpFailure(source: BalanceSource, status: number, bodyText: string, retryAfter: string | null): WalletReading {
  const said = serverMessage(bodyText);
  const quoted = said ? `: "${said}"` : '';
  if (status === 401 || status === 403) {
    return failed(
      'auth',
      `${source.service} refused the API key (HTTP ${status}${quoted}). Check ${keySettingOf(source)}.${source.keyHint ? ` ${source.keyHint}` : ''}`,
    );
  }
  if (status === 429) {
    const wait = retryAfterSeconds(retryAfter);
    return failed(
      'rate_limit',
      `${source.service} is limiting how often the balance may be asked for (HTTP 429). It will be asked again at the next refresh${wait !== null ? `; it asked to wait ${wait} s` : ''}.`,
    );
  }
  if (status >= 500) return failed('server', `${source.service} had a server error (HTTP ${status}${quoted}). Try Refresh again in a few minutes.`);
  return failed(
    'bad_response',
    `${source.service} answered HTTP ${status}${quoted}. Check ${baseUrlSettingOf(source)} (the balance was asked at ${source.url}).`,
  );
}

/** The `error.message` of an error body, on one line and at most 200 characters; null when there is none. */
export function serverMessage(bodyText: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return null;
  }
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const message = typeof error === 'string' ? error : typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  if (typeof message !== 'string' || message.trim() === '') return null;
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function retryAfterSeconds(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n) : null;
}
