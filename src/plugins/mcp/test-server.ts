import { McpServerConfig, type McpTestResult } from '../../shared/mcp/index.ts';
import { McpConnection } from './mcp-connection.ts';
import { McpOAuthProvider } from './mcp-oauth-provider.ts';

/** The name a tested server goes by in its messages: it is not saved, and its tools are offered to no one. */
const TEST_NAME = 'test';

/**
 * Settings' Test button: connects to a server from its config (as it would be stored, secrets included),
 * lists its tools and disconnects, whatever happened. Never throws: a config that is not complete or a
 * server that does not answer is `ok: false` with the reason in words.
 */
export async function testServer(raw: Record<string, unknown>, workspace: string): Promise<McpTestResult> {
  const parsed = McpServerConfig.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: `The server cannot be tried yet: ${parsed.error.issues[0]?.message ?? 'its settings are not complete'}.`, tools: [] };
  // An HTTP server that signs in with OAuth says so (nothing is kept: a sign-in is for a saved server's row).
  const config = parsed.data;
  const oauth = 'url' in config ? new McpOAuthProvider({ serverUrl: config.url, clientId: config.oauthClientId, stored: null, onSave: () => {} }) : undefined;
  const conn = new McpConnection({ name: TEST_NAME, config, source: 'settings' }, { workspace, ...(oauth ? { oauth } : {}) });
  try {
    await conn.connect();
    const status = conn.status();
    if (status.state !== 'connected') {
      const said = status.error ?? 'The server did not connect.';
      const why = (
        status.signIn === 'needed' ? said.replace(/Press Sign in on its row in Settings → MCP servers\.$/, 'Save it, then press Sign in on its row.') : said
      ).replace(`The MCP server '${TEST_NAME}' `, 'The server ');
      return { ok: false, message: why.slice(0, 4000), tools: [] };
    }
    const tools = conn.tools.slice(0, 2000).map((t) => ({
      name: t.name.slice(0, 200),
      ...(t.description ? { description: t.description.slice(0, 2000) } : {}),
      readOnlyHint: t.annotations?.['readOnlyHint'] === true,
    }));
    return { ok: true, message: `Connected: ${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}.`, tools };
  } finally {
    await conn.disconnect();
  }
}
