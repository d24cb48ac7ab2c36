// The fetch every OAuth request goes through (metadata, registration, token): an authorization server is a
// stranger, so what it answers is bounded before the SDK parses it. It refuses a URL that is neither https
// nor a loopback http one, follows a redirect only within the same origin (never to another host), gives up
// after a timeout, and refuses a body over MAX_OAUTH_BODY_BYTES. Each refusal is an OAuthRefusal: a sentence.

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The most an authorization server's answer may hold; real metadata and token answers are a few KB. */
export const MAX_OAUTH_BODY_BYTES = 256 * 1024;
const TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 3;

/** Amber refused what an authorization server (or the MCP server's metadata) said: `message` says what and why. */
export class OAuthRefusal extends Error {
  override readonly name = 'OAuthRefusal';
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether OAuth may talk to `url`: https anywhere, http only on this machine. */
export function isAllowedOAuthUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** A FetchLike that bounds what an authorization server can make Amber do or read. */
export function oauthFetch(base: FetchLike = fetch, options: { timeoutMs?: number; maxBytes?: number } = {}): FetchLike {
  const maxBytes = options.maxBytes ?? MAX_OAUTH_BODY_BYTES;
  return async (input, init = {}) => {
    let url = new URL(String(input));
    if (!isAllowedOAuthUrl(url)) throw new OAuthRefusal(`Amber does not sign in over ${url.protocol}//${url.host}: an authorization server must use https.`);
    const signal = init.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS)])
      : AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS);
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = await base(url, { ...init, redirect: 'manual', signal });
      } catch (e) {
        if (e instanceof Error && e.name === 'TimeoutError')
          throw new OAuthRefusal(`${url.host} did not answer within ${Math.round((options.timeoutMs ?? TIMEOUT_MS) / 1000)} s.`);
        throw e;
      }
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel().catch(() => {});
        const next = new URL(response.headers.get('location')!, url);
        if (next.origin !== url.origin)
          throw new OAuthRefusal(`${url.host} redirected Amber's OAuth request to another host (${next.host}); Amber does not follow it.`);
        if (hop >= MAX_REDIRECTS) throw new OAuthRefusal(`${url.host} redirected Amber's OAuth request more than ${MAX_REDIRECTS} times.`);
        url = next;
        continue;
      }
      return await bounded(response, maxBytes, url);
    }
  };
}

/** The response with its body read whole, refused past `maxBytes`. */
async function bounded(response: Response, maxBytes: number, url: URL): Promise<Response> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  const tooBig = () => new OAuthRefusal(`${url.host} answered more than ${Math.round(maxBytes / 1024)} KB to an OAuth request; Amber does not read it.`);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooBig();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooBig();
      }
      chunks.push(value);
    }
  }
  const body = Buffer.concat(chunks);
  // 204 and 304 carry no body: a Response refuses one.
  return new Response(response.status === 204 || response.status === 304 ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
