import { auth, extractWWWAuthenticateParams, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { type FetchLike, isAllowedOAuthUrl, OAuthRefusal, oauthFetch } from './oauth-fetch.ts';

// One HTTP server's OAuth client, for the SDK's transports and its `auth()` (discovery, registration, PKCE,
// token exchange and refresh are the SDK's). What Amber adds: a stored record bound to the server's URL;
// discovery checked before anything is sent to the authorization server it names (the issuer echoes the URL
// it was found at, the protected resource is this server, every endpoint is https or loopback); a token
// kept only if it is a bearer token for this server; a sign-in that stores nothing until it completes; and
// two modes. Passive (a connect or a call): stored tokens are used and refreshed, before they expire and on
// a 401, but nothing asks the user: where a sign-in is needed, `SignInNeeded` says so. Interactive (the
// user pressed Sign in): a fresh authorization through the browser, see mcp-sign-in.ts.

/** What is kept per server in the key file (never the database), as one JSON text. */
export const McpOAuthRecord = z.object({
  /** The server URL the credentials were obtained for: another URL drops them. */
  url: z.string(),
  client: z.record(z.string(), z.unknown()).optional(),
  tokens: z.record(z.string(), z.unknown()).optional(),
  /** When the access token expires (ms since the epoch); unknown when absent. */
  expiresAt: z.number().optional(),
  discovery: z.record(z.string(), z.unknown()).optional(),
});
export type McpOAuthRecord = z.infer<typeof McpOAuthRecord>;

/** Amber needs the user to sign in to this server: `message` says why in words. */
export class SignInNeeded extends Error {
  override readonly name = 'SignInNeeded';
}

/** A redirect URL that no listener serves: passive mode never starts an authorization. */
const PASSIVE_REDIRECT = 'http://127.0.0.1/amber-oauth-callback';
/** Tokens are refreshed this long before they expire. */
const REFRESH_MARGIN_MS = 60_000;

export interface McpOAuthProviderOptions {
  serverUrl: string;
  /** The client id the user entered in the server's form; unset, Amber registers itself. */
  clientId?: string | undefined;
  /** The secret of a pre-registered confidential client (with `clientId`). */
  clientSecret?: string | undefined;
  /** An https URL of Amber's client ID metadata document, used where the authorization server accepts one instead of registration. */
  clientMetadataUrl?: string | undefined;
  /** What the key file held for this server (a record for another URL is ignored). */
  stored: string | null;
  /** Hears every change of the stored record (null: none); the plugin hands it to main for the key file. */
  onSave(record: string | null): void;
  /** Follows the 2025-03-26 fallback (the server's origin as its own authorization server, default endpoints) where no metadata is found. */
  legacyFallback?: boolean;
  fetch?: FetchLike;
  clock?: () => number;
}

interface Interactive {
  redirectUrl: string;
  state: string;
  onAuthorizationUrl(url: URL): void;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  expiresAt?: number;
  discovery?: OAuthDiscoveryState;
}

export class McpOAuthProvider implements OAuthClientProvider {
  /** For the SDK's auth requests: bounded (oauth-fetch.ts). */
  readonly fetch: FetchLike;
  /** For the transports: the server's own URL unbounded, anything else (metadata, tokens) as `fetch`. */
  readonly transportFetch: FetchLike;
  /** The scope a 403 insufficient_scope asked for: the next sign-in asks for it (step-up). */
  wantedScope: string | null = null;
  readonly #o: McpOAuthProviderOptions;
  readonly #clock: () => number;
  #record: McpOAuthRecord | null;
  #interactive: Interactive | null = null;
  #verifier = '';
  #refreshing: Promise<void> | null = null;
  #inAuth = 0;
  /** The last refusal of a fetch during this auth run (see `fetch`). */
  #refusal: OAuthRefusal | null = null;
  /** Why the last refresh or sign-in failed, in words; cleared by a success. */
  lastFailure: string | null = null;
  /** Whether this server was seen to sign in with OAuth (metadata found, or credentials held). */
  #usesOAuth: boolean;

  constructor(options: McpOAuthProviderOptions) {
    this.#o = options;
    this.#clock = options.clock ?? Date.now;
    const bounded = oauthFetch(options.fetch);
    // A refused refresh says why here: the SDK then drops the tokens and only knows a sign-in is needed.
    this.fetch = async (url, init) => {
      let response: Response;
      try {
        response = await bounded(url, init);
      } catch (e) {
        // The SDK's discovery swallows a failed metadata fetch and tries the next place: the reason is kept.
        if (e instanceof OAuthRefusal) this.#refusal = e;
        throw e;
      }
      if (!response.ok && String(init?.body ?? '').includes('grant_type=refresh_token'))
        this.lastFailure = `its authorization server refused to renew the sign-in (${await oauthErrorText(response.clone())})`;
      return response;
    };
    const base = options.fetch ?? fetch;
    // The MCP requests themselves go as they are (streams, no cap); a 403 asking for more scope is noted for the next sign-in.
    this.transportFetch = async (url, init) => {
      if (new URL(String(url)).href !== new URL(options.serverUrl).href) return await this.fetch(url, init);
      const response = await base(url, init);
      if (response.status === 403) {
        const { scope, error } = extractWWWAuthenticateParams(response);
        if (error === 'insufficient_scope' && scope) {
          this.wantedScope = scope.slice(0, 1000);
          this.lastFailure = `it needs more permission (the scope '${this.wantedScope}'); sign in again to grant it`;
        }
      }
      return response;
    };
    this.#record = readRecord(options.stored, options.serverUrl);
    this.#usesOAuth = this.#record !== null;
    // A record for another URL (or unreadable) is dropped from the key file too.
    if (options.stored !== null && this.#record === null) options.onSave(null);
  }

  /** The row's sign-in state: null when the server was never seen to sign in with OAuth. */
  signInState(connected: boolean): 'needed' | 'waiting' | 'signedIn' | null {
    if (this.#interactive) return 'waiting';
    if (this.#record?.tokens && (connected || this.lastFailure === null)) return 'signedIn';
    return this.#usesOAuth ? 'needed' : null;
  }

  get signedIn(): boolean {
    return this.#record?.tokens !== undefined;
  }

  get redirectUrl(): string {
    return this.#interactive?.redirectUrl ?? PASSIVE_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Amber',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.#interactive?.state ?? '';
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.#interactive?.client) return this.#interactive.client;
    const stored = this.#record?.client as OAuthClientInformationMixed | undefined;
    if (this.#interactive) {
      if (this.#o.clientId) return stored?.client_id === this.#o.clientId ? stored : this.#configuredClient();
      // A client registered for another loopback port registers again (its redirect URI is exact).
      const uris = (stored as { redirect_uris?: unknown } | undefined)?.redirect_uris;
      if (Array.isArray(uris) && !uris.includes(this.#interactive.redirectUrl)) return undefined;
      return stored;
    }
    if (stored) return stored;
    throw new SignInNeeded('Amber has not signed in to this server yet.');
  }

  /** The client the user configured (an id, and a secret for a confidential one). */
  #configuredClient(): OAuthClientInformationMixed {
    return { client_id: this.#o.clientId!, ...(this.#o.clientSecret ? { client_secret: this.#o.clientSecret } : {}) };
  }

  get clientMetadataUrl(): string | undefined {
    return this.#o.clientMetadataUrl;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.#interactive) {
      this.#interactive.client = info;
      return;
    }
    this.#update({ client: info as Record<string, unknown> });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.#interactive) return undefined;
    const record = this.#record;
    const tokens = record?.tokens as OAuthTokens | undefined;
    if (!tokens) return undefined;
    const expiring = record?.expiresAt !== undefined && record.expiresAt - REFRESH_MARGIN_MS <= this.#clock();
    if (expiring && tokens.refresh_token && this.#inAuth === 0) {
      await this.refresh().catch(() => {});
      const fresh = this.#record?.tokens as OAuthTokens | undefined;
      // An expired token that could not be refreshed is not sent: the server's 401 says what to do.
      return this.#record?.expiresAt !== undefined && this.#record.expiresAt <= this.#clock() ? undefined : fresh;
    }
    return tokens;
  }

  /** Refreshes the tokens now (one refresh at a time); a failure is kept in lastFailure and thrown. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#run({})
      .then((result) => {
        if (result !== 'AUTHORIZED') throw new SignInNeeded('its authorization server did not renew the sign-in.');
      })
      .finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#checkToken(tokens);
    const expiresAt = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? this.#clock() + tokens.expires_in * 1000 : undefined;
    if (this.#interactive) {
      this.#interactive.tokens = tokens;
      this.#interactive.expiresAt = expiresAt;
      return;
    }
    // A refresh that gives no new refresh token keeps the old one (RFC 6749 §6).
    const previous = this.#record?.tokens as OAuthTokens | undefined;
    const kept = tokens.refresh_token === undefined && previous?.refresh_token ? { ...tokens, refresh_token: previous.refresh_token } : tokens;
    this.lastFailure = null;
    this.#update({ tokens: kept as Record<string, unknown>, expiresAt });
  }

  redirectToAuthorization(url: URL): void {
    if (!this.#interactive) throw new SignInNeeded('Amber has no valid sign-in for this server.');
    if (!isAllowedOAuthUrl(url)) throw new OAuthRefusal(`The authorization page ${url.origin} is not https; Amber does not open it.`);
    this.#interactive.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new OAuthRefusal('There is no sign-in under way to finish.');
    return this.#verifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    if (this.#interactive) return this.#interactive.discovery;
    return this.#record?.discovery as OAuthDiscoveryState | undefined;
  }

  /** Checked before anything is sent to the authorization server discovery named; a refusal stops auth() there. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // Metadata found (or its fetch refused): the server signs in with OAuth, even when what it says is refused (the row then says why).
    if (state.authorizationServerMetadata || state.resourceMetadata || this.#refusal) this.#usesOAuth = true;
    try {
      checkDiscovery(state, this.#o.serverUrl, this.#o.legacyFallback === true);
    } catch (e) {
      // No metadata because a fetch of it was refused: the refusal says why.
      throw e instanceof SignInNeeded && this.#refusal ? this.#refusal : e;
    }
    this.#usesOAuth = true;
    if (this.#interactive) this.#interactive.discovery = state;
    else if (this.#record) this.#update({ discovery: state as unknown as Record<string, unknown> });
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') return void (this.#verifier = '');
    if (this.#interactive) {
      if (scope === 'all' || scope === 'client') delete this.#interactive.client;
      if (scope === 'all' || scope === 'discovery') delete this.#interactive.discovery;
      return;
    }
    if (!this.#record) return;
    if (scope === 'all') return this.forget();
    const next = { ...this.#record };
    if (scope === 'client') delete next.client;
    if (scope === 'tokens') {
      delete next.tokens;
      delete next.expiresAt;
    }
    if (scope === 'discovery') delete next.discovery;
    this.#record = next;
    this.#o.onSave(JSON.stringify(next));
  }

  /** Signs out: every credential of this server is dropped. */
  forget(): void {
    const had = this.#record !== null;
    this.#record = null;
    this.lastFailure = null;
    if (had) this.#o.onSave(null);
  }

  /**
   * The interactive sign-in: `begin` puts the provider in that mode (a fresh authorization, nothing stored
   * yet); `finish` commits what it obtained; `abort` drops it and keeps the reason. Both name the sign-in by
   * its state: a sign-in replaced by a newer one (Sign in pressed again) changes nothing when it ends.
   * mcp-sign-in.ts drives them.
   */
  begin(redirectUrl: string, state: string, onAuthorizationUrl: (url: URL) => void): void {
    this.#interactive = { redirectUrl, state, onAuthorizationUrl };
    this.#verifier = '';
  }

  finish(state: string): void {
    if (this.#interactive?.state !== state) throw new OAuthRefusal('A newer sign-in replaced this one.');
    const done = this.#interactive;
    this.#interactive = null;
    this.#verifier = '';
    if (!done?.tokens) throw new OAuthRefusal('The sign-in ended without a token.');
    this.lastFailure = null;
    this.#usesOAuth = true;
    this.#record = {
      url: this.#o.serverUrl,
      ...(done.client ? { client: done.client as Record<string, unknown> } : {}),
      tokens: done.tokens as Record<string, unknown>,
      ...(done.expiresAt !== undefined ? { expiresAt: done.expiresAt } : {}),
      ...(done.discovery ? { discovery: done.discovery as unknown as Record<string, unknown> } : {}),
    };
    this.#o.onSave(JSON.stringify(this.#record));
  }

  abort(reason: string, state: string): void {
    if (this.#interactive !== null && this.#interactive.state !== state) return;
    this.#interactive = null;
    this.#verifier = '';
    this.lastFailure = reason;
  }

  /** auth() with this provider and the bounded fetch; `inAuth` keeps tokens() from refreshing inside it. */
  async #run(options: { authorizationCode?: string; scope?: string; resourceMetadataUrl?: URL }): Promise<'AUTHORIZED' | 'REDIRECT'> {
    this.#inAuth++;
    this.#refusal = null;
    try {
      return await auth(this, { serverUrl: this.#o.serverUrl, fetchFn: this.fetch, ...options });
    } catch (e) {
      if (!this.#interactive && !(e instanceof SignInNeeded)) this.lastFailure = `its sign-in could not be renewed: ${describe(e)}`;
      throw e;
    } finally {
      this.#inAuth--;
    }
  }

  /** For mcp-sign-in.ts: one step of the flow under this provider. */
  authorize(options: { authorizationCode?: string; scope?: string; resourceMetadataUrl?: URL }): Promise<'AUTHORIZED' | 'REDIRECT'> {
    return this.#run(options);
  }

  #update(change: Partial<McpOAuthRecord>): void {
    this.#record = { ...(this.#record ?? { url: this.#o.serverUrl }), ...change };
    if (change.expiresAt === undefined && 'expiresAt' in change) delete this.#record.expiresAt;
    this.#o.onSave(JSON.stringify(this.#record));
  }

  /** A token Amber keeps: a bearer token, and when it says its audience, for this server. */
  #checkToken(tokens: OAuthTokens): void {
    if (tokens.token_type.toLowerCase() !== 'bearer')
      throw new OAuthRefusal(`The authorization server gave a '${tokens.token_type.slice(0, 40)}' token; Amber uses only bearer tokens. Nothing was kept.`);
    if (tokens.access_token.length === 0 || tokens.access_token.length > 16_384)
      throw new OAuthRefusal('The authorization server gave an empty or oversized access token. Nothing was kept.');
    const audience = jwtAudience(tokens.access_token);
    if (audience === null) return;
    const discovery = this.#interactive?.discovery ?? (this.#record?.discovery as OAuthDiscoveryState | undefined);
    const resource = discovery?.resourceMetadata?.resource;
    const ours = new Set([this.#o.serverUrl, new URL(this.#o.serverUrl).origin, ...(resource ? [resource] : [])].flatMap((u) => [u, u.replace(/\/+$/, '')]));
    if (!audience.some((a) => ours.has(a) || ours.has(a.replace(/\/+$/, ''))))
      throw new OAuthRefusal(
        `The authorization server gave a token for another audience (${audience.join(', ').slice(0, 200)}), not for ${this.#o.serverUrl}. Nothing was kept.`,
      );
  }
}

/** The record in `stored` if it is one and was obtained for `url`. */
function readRecord(stored: string | null, url: string): McpOAuthRecord | null {
  if (stored === null) return null;
  try {
    const parsed = McpOAuthRecord.safeParse(JSON.parse(stored));
    return parsed.success && parsed.data.url === url ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * What discovery found, checked: an authorization server's metadata names the issuer it was fetched for
 * (RFC 8414 §3.3), the protected resource metadata names this server (RFC 9728 §3.3), and every endpoint is
 * https or loopback. With no metadata at all, the server does not sign in with OAuth unless the older
 * fallback is asked for.
 */
export function checkDiscovery(state: OAuthDiscoveryState, serverUrl: string, legacyFallback: boolean): void {
  const as = state.authorizationServerMetadata;
  const prm = state.resourceMetadata;
  if (!as && !prm && !legacyFallback)
    throw new SignInNeeded('it asks for authorization but publishes no OAuth metadata; add an Authorization header to it in Settings → MCP servers → Edit');
  if (prm) {
    const server = new URL(serverUrl);
    let resource: URL;
    try {
      resource = new URL(prm.resource);
    } catch {
      throw new OAuthRefusal(`The server's protected resource metadata names a resource that is not a URL; Amber did not sign in.`);
    }
    if (resource.origin !== server.origin || !slashed(server.pathname).startsWith(slashed(resource.pathname)))
      throw new OAuthRefusal(
        `The server's protected resource metadata is for ${resource.href.slice(0, 200)}, not for ${serverUrl}; Amber did not sign in (it would send your sign-in elsewhere).`,
      );
  }
  const issuerUrl = state.authorizationServerUrl;
  if (!isAllowedOAuthUrl(new URL(issuerUrl)))
    throw new OAuthRefusal(`The authorization server ${issuerUrl.slice(0, 200)} is not https; Amber did not sign in.`);
  if (as) {
    // Named by the resource's metadata, the issuer is exact (RFC 8414 §3.3); inferred from the server's own
    // origin (the 2025-03-26 discovery, no resource metadata), it must be on that origin.
    const issuerOk = prm ? trimSlashes(as.issuer) === trimSlashes(issuerUrl) : sameOrigin(as.issuer, issuerUrl);
    if (!issuerOk)
      throw new OAuthRefusal(
        `The authorization server at ${issuerUrl.slice(0, 200)} says it is ${as.issuer.slice(0, 200)} (a wrong issuer); Amber did not sign in.`,
      );
    for (const [what, value] of Object.entries({
      'authorization endpoint': as.authorization_endpoint,
      'token endpoint': as.token_endpoint,
      'registration endpoint': as.registration_endpoint,
    })) {
      if (value === undefined) continue;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new OAuthRefusal(`The authorization server's ${what} is not a URL; Amber did not sign in.`);
      }
      if (!isAllowedOAuthUrl(url)) throw new OAuthRefusal(`The authorization server's ${what} ${url.origin} is not https; Amber did not sign in.`);
    }
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

const slashed = (p: string) => (p.endsWith('/') ? p : `${p}/`);
const trimSlashes = (u: string) => u.replace(/\/+$/, '');

/** The `aud` of a JWT access token (as a list), or null for an opaque token or one that names none. */
function jwtAudience(token: string): string[] | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null) return null;
    const aud = (payload as { aud?: unknown }).aud;
    if (typeof aud === 'string') return [aud];
    if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud;
    return null;
  } catch {
    return null;
  }
}

/** An OAuth error answer in words: its error_description, else its error code, else its status. */
async function oauthErrorText(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown; error_description?: unknown };
    const text = typeof body.error_description === 'string' ? body.error_description : typeof body.error === 'string' ? body.error : null;
    if (text) return text.slice(0, 300);
  } catch {
    // Not JSON: the status says it.
  }
  return `HTTP ${response.status}`;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
