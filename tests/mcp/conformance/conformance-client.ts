// The MCP conformance suite's client under test: `npm run -s mcp:conformance-client -- <server-url>`, with the
// scenario named in MCP_CONFORMANCE_SCENARIO (and its data, when it has any, in MCP_CONFORMANCE_CONTEXT). It
// drives Amber's own MCP connection, the class the MCP plugin uses, as a user would: connect (initialize and
// list), call every tool the server lists with arguments made from its schema, accept what a server asks
// (elicitation) with the form's defaults as a user who presses Accept, and close. The transport's own
// reconnects (an SSE stream the server closes, with its retry and Last-Event-ID) happen inside the call.
//
// The scenarios that sign in go as a user who presses Sign in and approves: the plugin's own OAuth client
// (McpOAuthProvider, made by conformanceOAuth unless `connectionOptions.oauth` gives one) and its sign-in
// (startSignIn, with its loopback redirect listener), whose browser step `approveSignIn` completes (follows
// the authorization URL to the redirect); a call refused for want of scope signs in again once (step-up).
import { pathToFileURL } from 'node:url';
import { checkElicitation, type ElicitationAnswer, type ElicitationField, elicitationDefaults } from '../../../src/shared/elicitation/index.ts';
import { McpConnection, type McpConnectionOptions, McpOAuthProvider, McpServerConfig, startSignIn } from '../../../src/plugins/mcp/index.ts';

/** What one run of the client needs besides the server's URL. */
export interface ConformanceClientOptions {
  scenario: string;
  /** MCP_CONFORMANCE_CONTEXT parsed: scenario data such as pre-registered client credentials. */
  context?: Record<string, unknown>;
  /** Merged into the connection's options (`oauth`: the OAuth client for the sign-in scenarios; default conformanceOAuth's). */
  connectionOptions?: Partial<McpConnectionOptions>;
  log?: (line: string) => void;
}

/**
 * The browser step of a sign-in, done as a user who approves it: opens the authorization URL and follows
 * its redirects (an approving authorization server redirects at once) until one leads to `redirectUri`;
 * answers that URL (with its `code` and `state`). Throws a sentence when the server answers anything else.
 */
export async function approveSignIn(authorizationUrl: URL, redirectUri: string, fetchImpl: typeof fetch = fetch): Promise<URL> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetchImpl(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location)
      throw new Error(`The authorization server answered ${response.status} to ${url.href} instead of redirecting back.`);
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri)) return next;
    url = next;
  }
  throw new Error(`The authorization server redirected more than 10 times without coming back to ${redirectUri}.`);
}

/** Arguments for a tool from its input schema: each property's default, else a plain value of its type. */
export function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property['default'] !== undefined) args[name] = property['default'];
    else if (Array.isArray(property['enum']) && property['enum'].length > 0) args[name] = property['enum'][0];
    else if (property['type'] === 'number' || property['type'] === 'integer') args[name] = 1;
    else if (property['type'] === 'boolean') args[name] = true;
    else if (property['type'] === 'array') args[name] = [];
    else if (property['type'] === 'object') args[name] = {};
    else args[name] = 'test';
  }
  return args;
}

/** A user who presses Accept on the form as it opens: its defaults, when they make an answer; else Decline. */
export function acceptDefaults(fields: readonly ElicitationField[]): ElicitationAnswer {
  const checked = checkElicitation(fields, elicitationDefaults(fields));
  return checked.ok ? { action: 'accept', content: checked.content } : { action: 'decline' };
}

/**
 * The OAuth client a user's Amber has for `url`, with what the scenario's context pre-registers (a client id
 * and secret) and the 2025-03-26 fallback (default endpoints on the server's origin) the older scenarios need.
 * Credentials live as long as the run.
 */
export function conformanceOAuth(url: string, context: Record<string, unknown> = {}): McpOAuthProvider {
  const text = (key: string) => (typeof context[key] === 'string' ? (context[key] as string) : undefined);
  return new McpOAuthProvider({
    serverUrl: url,
    stored: null,
    onSave: () => {},
    legacyFallback: true,
    clientId: text('client_id'),
    clientSecret: text('client_secret'),
    // The suite stands in for where a client publishes its metadata document: its authorization server expects this URL as the client id.
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  });
}

/**
 * Signs in as a user who presses Sign in and approves in the browser: the sign-in's authorization page is
 * followed to Amber's loopback redirect, which is then opened (the browser's last step), and the connection
 * reconnects with the tokens. Throws the sign-in's refusal, in a sentence.
 */
export async function signInAsUser(conn: McpConnection, url: string, provider: McpOAuthProvider, log: (line: string) => void): Promise<void> {
  const started = await startSignIn(url, provider, provider.wantedScope ? { scope: provider.wantedScope } : {});
  const page = new URL(started.url);
  log(`sign-in: ${page.origin}${page.pathname} (scope ${page.searchParams.get('scope') ?? 'none'})`);
  const back = await approveSignIn(page, page.searchParams.get('redirect_uri') ?? '');
  await (await fetch(back)).text();
  await started.done;
  provider.wantedScope = null;
  await conn.restart();
}

/** Runs one scenario against `url`; throws what went wrong, in a sentence. */
export async function runConformanceClient(url: string, options: ConformanceClientOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const oauth = options.connectionOptions?.oauth ?? conformanceOAuth(url, options.context);
  const conn = new McpConnection(
    { name: 'conformance', source: 'settings', config: McpServerConfig.parse({ url }) },
    {
      workspace: process.cwd(),
      onElicit: async (request) => {
        const answer = acceptDefaults(request.fields);
        log(`${request.server} asks: ${request.message} → ${JSON.stringify(answer)}`);
        return answer;
      },
      ...options.connectionOptions,
      oauth,
    },
  );
  // A server that asks for a sign-in (or more scope, on a call) gets one, once per reason: never a loop.
  const signInIfAsked = async (): Promise<boolean> => {
    if (conn.state !== 'unauthorized' || conn.status().signIn !== 'needed') return false;
    await signInAsUser(conn, url, oauth, log);
    return true;
  };
  try {
    await conn.connect();
    await signInIfAsked();
    if (conn.state !== 'connected') throw new Error(conn.status().error ?? `The server at ${url} did not connect.`);
    log(`${options.scenario}: connected, ${conn.tools.length} tool(s)`);
    for (const tool of conn.tools) {
      const args = sampleArguments(tool.inputSchema);
      let result: unknown;
      try {
        result = await conn.callTool(tool.name, args);
      } catch (e) {
        // Step-up: a call refused for want of scope signs in again with the scope it named, then is tried once more.
        if (!(await signInIfAsked())) throw e;
        result = await conn.callTool(tool.name, args);
      }
      log(`${tool.name}: ${JSON.stringify(result).slice(0, 500)}`);
    }
  } finally {
    await conn.disconnect();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.argv[2];
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  if (!url) {
    console.error('Usage: npm run -s mcp:conformance-client -- <server-url> (with MCP_CONFORMANCE_SCENARIO set)');
    process.exit(2);
  }
  const raw = process.env['MCP_CONFORMANCE_CONTEXT'];
  try {
    await runConformanceClient(url, { scenario, ...(raw ? { context: JSON.parse(raw) as Record<string, unknown> } : {}) });
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
