// The MCP conformance suite's client under test: `npm run -s mcp:conformance-client -- <server-url>`, with the
// scenario named in MCP_CONFORMANCE_SCENARIO (and its data, when it has any, in MCP_CONFORMANCE_CONTEXT). It
// drives Amber's own MCP connection, the class the MCP plugin uses, as a user would: connect (initialize and
// list), call every tool the server lists with arguments made from its schema, accept what a server asks
// (elicitation) with the form's defaults as a user who presses Accept, and close. The transport's own
// reconnects (an SSE stream the server closes, with its retry and Last-Event-ID) happen inside the call.
//
// Seams for the scenarios that sign in: `connectionOptions` (merged into the connection's options: an auth
// provider goes there; by default there is none) and `approveSignIn`, which completes a browser step as a user
// who approves it (follows the authorization URL to the redirect).
import { pathToFileURL } from 'node:url';
import { checkElicitation, type ElicitationAnswer, type ElicitationField, elicitationDefaults } from '../../../src/shared/elicitation/index.ts';
import { McpConnection, type McpConnectionOptions, McpServerConfig } from '../../../src/plugins/mcp/index.ts';

/** What one run of the client needs besides the server's URL. */
export interface ConformanceClientOptions {
  scenario: string;
  /** MCP_CONFORMANCE_CONTEXT parsed: scenario data such as pre-registered client credentials. */
  context?: Record<string, unknown>;
  /** Merged into the connection's options (an auth provider, for the sign-in scenarios). Default: none. */
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

/** Runs one scenario against `url`; throws what went wrong, in a sentence. */
export async function runConformanceClient(url: string, options: ConformanceClientOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
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
    },
  );
  try {
    await conn.connect();
    if (conn.state !== 'connected') throw new Error(conn.status().error ?? `The server at ${url} did not connect.`);
    log(`${options.scenario}: connected, ${conn.tools.length} tool(s)`);
    for (const tool of conn.tools) {
      const result = await conn.callTool(tool.name, sampleArguments(tool.inputSchema));
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
