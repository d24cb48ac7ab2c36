import { httpFailure } from './http-failure.ts';
import { baseUrlSettingOf, type BalanceSource, failed, type WalletReading } from './wallet-reading.ts';

export interface BalanceRequestOptions {
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
  /** Bodies larger than this are not a balance; reading stops there. */
  maxBodyBytes?: number;
}

/**
 * Asks one balance endpoint (GET, bearer key) and turns whatever happens into a reading: a refused key, a
 * rate limit, a server error, a body that is not JSON or not a balance, a timeout or an unreachable host.
 * Never throws. The key goes only into the Authorization header, never into a message.
 */
export async function fetchBalance(source: BalanceSource, parse: (body: unknown) => WalletReading, options: BalanceRequestOptions): Promise<WalletReading> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    const res = await doFetch(source.url, {
      method: 'GET',
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      signal: controller.signal,
    });
    const text = hideKey(await readText(res, options.maxBodyBytes ?? 256 * 1024), options.apiKey);
    if (!res.ok) return httpFailure(source, res.status, text, res.headers.get('retry-after'));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return failed(
        'bad_response',
        `${source.service} answered with something that is not JSON. Check ${baseUrlSettingOf(source)} (the balance was asked at ${source.url}).`,
      );
    }
    return parse(body);
  } catch (e) {
    if (timedOut) {
      return failed(
        'timeout',
        `${source.service} did not answer within ${formatSeconds(options.timeoutMs)}. Check your connection, or raise the request timeout in Settings → Plugins → Wallet → Settings.`,
      );
    }
    return failed(
      'network',
      `Could not reach ${source.service} at ${source.url} (${hideKey(networkReason(e), options.apiKey)}). Check your connection or ${baseUrlSettingOf(source)}.`,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function readText(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      break;
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A server (or the HTTP library's error) that echoes the key back must not put it on screen. */
function hideKey(text: string, apiKey: string): string {
  return apiKey.length >= 4 ? text.replaceAll(apiKey, '****') : text;
}

function networkReason(e: unknown): string {
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return e instanceof Error ? e.message : String(e);
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
