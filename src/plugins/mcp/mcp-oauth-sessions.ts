import { isStdio, type McpServerEntry } from './mcp-config.ts';
import type { McpConnection } from './mcp-connection.ts';
import { McpOAuthProvider } from './mcp-oauth-provider.ts';
import { type SignIn, startSignIn } from './mcp-sign-in.ts';

// The plugin's OAuth state across its servers: one provider per HTTP server (kept across reloads while
// the server's entry is unchanged), the sign-ins under way, and the credentials main keeps in the key file.
// Main reads them with the `credentials` method when `revision` moves; the plugin never logs them.

export class McpOAuthSessions {
  readonly #providers = new Map<string, { entry: string; provider: McpOAuthProvider }>();
  readonly #signIns = new Map<string, SignIn>();
  /** Per server: its credentials as main should keep them (null: drop them). */
  readonly #credentials = new Map<string, string | null>();
  #revision = 0;
  readonly #onChange: () => void;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  get revision(): number {
    return this.#revision;
  }

  /**
   * The provider of an HTTP server (none for stdio). `stored` is what the key file holds for it; a provider
   * made for the same entry before is kept (it holds fresher tokens than the key file may yet).
   */
  providerFor(entry: McpServerEntry, stored: unknown): McpOAuthProvider | undefined {
    if (isStdio(entry.config)) return undefined;
    const key = JSON.stringify(entry);
    const held = this.#providers.get(entry.name);
    if (held?.entry === key) return held.provider;
    this.#signIns.get(entry.name)?.cancel();
    const name = entry.name;
    const provider = new McpOAuthProvider({
      serverUrl: entry.config.url,
      clientId: entry.config.oauthClientId,
      stored: typeof stored === 'string' && stored !== '' ? stored : null,
      onSave: (record) => {
        this.#credentials.set(name, record);
        this.#revision++;
        this.#onChange();
      },
    });
    this.#providers.set(name, { entry: key, provider });
    return provider;
  }

  /** Forgets the servers no longer configured (their stored credentials are main's to drop with them). */
  retain(names: Set<string>): void {
    for (const name of this.#providers.keys()) {
      if (names.has(name)) continue;
      this.#signIns.get(name)?.cancel();
      this.#providers.delete(name);
    }
  }

  /** Starts a sign-in to `conn`'s server; once the browser comes back the server reconnects. Answers the page to open. */
  async signIn(conn: McpConnection): Promise<{ url: string }> {
    const provider = this.#providers.get(conn.name)?.provider;
    if (!provider || isStdio(conn.entry.config))
      throw new Error(`The MCP server '${conn.name}' does not sign in with OAuth${isStdio(conn.entry.config) ? ' (it runs on this machine)' : ''}.`);
    if (conn.entry.config.disabled) throw new Error(`The MCP server '${conn.name}' is switched off; switch it on, then sign in.`);
    this.#signIns.get(conn.name)?.cancel();
    const scope = provider.wantedScope ?? undefined;
    let signIn: SignIn;
    try {
      signIn = await startSignIn(conn.entry.config.url, provider, scope ? { scope } : {});
    } finally {
      this.#onChange();
    }
    this.#signIns.set(conn.name, signIn);
    void signIn.done.then(
      async () => {
        provider.wantedScope = null;
        if (this.#signIns.get(conn.name) === signIn) this.#signIns.delete(conn.name);
        await conn.restart();
      },
      async () => {
        if (this.#signIns.get(conn.name) === signIn) this.#signIns.delete(conn.name);
        // The row says why (the connection's error names the provider's reason).
        await conn.restart();
      },
    );
    return { url: signIn.url };
  }

  /** Drops the server's credentials and disconnects it; the next connect asks for a sign-in. */
  async signOut(conn: McpConnection): Promise<void> {
    this.#signIns.get(conn.name)?.cancel();
    this.#providers.get(conn.name)?.provider.forget();
    // A server switched off stays off.
    if (!conn.entry.config.disabled) await conn.restart();
  }

  credentials(): { revision: number; servers: Record<string, string | null> } {
    return { revision: this.#revision, servers: Object.fromEntries(this.#credentials) };
  }
}
