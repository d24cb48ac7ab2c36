import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { openLoopbackRedirect } from './loopback-redirect.ts';
import { type McpOAuthProvider, SignInNeeded } from './mcp-oauth-provider.ts';
import { OAuthRefusal } from './oauth-fetch.ts';

// A sign-in the user started: the server is asked once without a token to learn where its metadata is and
// which scopes it wants (its 401's WWW-Authenticate); the SDK's auth() discovers, registers and builds the
// authorization URL with PKCE under the provider's interactive mode; `url` goes to the browser; the
// loopback listener waits for the redirect, whose code auth() exchanges. Nothing is stored unless every
// step passed (the provider commits in `finish`).

export interface SignIn {
  /** The authorization page, for the browser. */
  url: string;
  /** Settles once the browser came back and the tokens are kept, or with the reason it failed (a sentence). */
  done: Promise<void>;
  cancel(): void;
}

export interface SignInOptions {
  /** The scope to ask for instead of the one the server names (step-up asks for more). */
  scope?: string;
  timeoutMs?: number;
}

/** Starts the sign-in; rejects with a sentence when no authorization page could be made. */
export async function startSignIn(serverUrl: string, provider: McpOAuthProvider, options: SignInOptions = {}): Promise<SignIn> {
  const challenge = await probeChallenge(serverUrl, provider);
  let issuer: string | undefined;
  const redirect = await openLoopbackRedirect({ ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), issuer: () => issuer });
  let url: URL | null = null;
  provider.begin(redirect.redirectUrl, redirect.state, (u) => (url = u));
  const step = {
    ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    ...((options.scope ?? challenge.scope) ? { scope: (options.scope ?? challenge.scope)! } : {}),
  };
  try {
    const result = await provider.authorize(step);
    if (result !== 'REDIRECT' || url === null) throw new OAuthRefusal('The authorization server did not give an authorization page.');
  } catch (e) {
    redirect.close();
    const refusal = inWords(e);
    provider.abort(refusal.message, redirect.state);
    throw refusal;
  }
  // RFC 9207: an `iss` on the redirect must be the issuer discovery found.
  const metadata = provider.discoveryState()?.authorizationServerMetadata;
  issuer = metadata?.issuer;
  const done = (async () => {
    try {
      const code = await redirect.code;
      if ((metadata as Record<string, unknown> | undefined)?.['authorization_response_iss_parameter_supported'] === true && issuer === undefined)
        throw new OAuthRefusal('The authorization server did not say who it is.');
      const result = await provider.authorize({ ...step, authorizationCode: code });
      if (result !== 'AUTHORIZED') throw new OAuthRefusal('The authorization server did not accept the sign-in.');
      provider.finish(redirect.state);
    } catch (e) {
      const refusal = inWords(e);
      provider.abort(refusal.message, redirect.state);
      throw refusal;
    } finally {
      redirect.close();
    }
  })();
  done.catch(() => {});
  return { url: String(url), done, cancel: () => redirect.close() };
}

/**
 * The server's answer to a request without a token: where its resource metadata is and what scope it asks
 * for (both optional: discovery then tries the well-known places).
 */
async function probeChallenge(serverUrl: string, provider: McpOAuthProvider): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const response = await provider.fetch(serverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'amber', version: '1.0.0' } },
    }),
  });
  if (response.status !== 401 && response.status !== 403) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}

/** A failure as a sentence for the row: Amber's refusals as they are, anything else (the SDK's parse errors, a network error) said so. */
function inWords(e: unknown): OAuthRefusal | SignInNeeded {
  if (e instanceof OAuthRefusal || e instanceof SignInNeeded) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (/dynamic client registration/i.test(message))
    return new OAuthRefusal(
      "The server's authorization server does not let Amber register itself: register Amber there (redirect URI http://127.0.0.1, any port) and enter the client id it gives in the server's form (Settings → MCP servers → Edit). Nothing was kept.",
      { cause: e },
    );
  return new OAuthRefusal(`The sign-in failed: ${message.slice(0, 300)}${/[.!?]$/.test(message) ? '' : '.'} Nothing was kept.`, { cause: e });
}
