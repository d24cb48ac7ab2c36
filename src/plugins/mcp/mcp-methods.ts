import { MAX_MCP_RESOURCE_CHARS, MCP_METHODS, type McpMethods, type McpPluginReport } from '../../shared/mcp/index.ts';
import type { MethodContribution } from '../../workers/sdk/index.ts';
import type { McpCatalog, McpCommandActions, McpCommandState } from './mcp-command.ts';
import { promptText } from './mcp-command.ts';
import type { McpConnection } from './mcp-connection.ts';
import type { McpOAuthSessions } from './mcp-oauth-sessions.ts';
import { mapResourceContents } from './mcp-result.ts';
import { testServer } from './test-server.ts';

// The methods main calls (MCP_METHODS in shared): each parses its arguments with the table's schema before
// it acts, and answers plain data main parses with the same table. No text is parsed on either side.

type Handlers = { [M in keyof McpMethods]: (args: ReturnType<McpMethods[M]['args']['parse']>) => Promise<unknown> | unknown };

export function mcpMethods(state: McpCommandState, actions: McpCommandActions & { catalog(): McpCatalog; oauth: McpOAuthSessions }): MethodContribution[] {
  const find = (name: string): McpConnection => {
    const conn = state.servers.get(name);
    if (!conn) throw new Error(`There is no MCP server '${name}'. /mcp list names them.`);
    return conn;
  };
  const handlers: Handlers = {
    report: (): McpPluginReport => ({
      servers: actions.statuses(),
      problems: state.problems,
      ...actions.catalog(),
      ...(actions.workspace() ? { workspace: actions.workspace()! } : {}),
      credentialsRevision: actions.oauth.revision,
    }),
    reload: async () => {
      await actions.reload();
      return { servers: state.servers.size };
    },
    restart: async ({ server }) => {
      const conn = find(server);
      await conn.restart();
      return { server: conn.status() };
    },
    prompt: async ({ server, prompt, arguments: values }) => ({ text: await promptText(find(server), prompt, values) }),
    // One character past the cap tells main the text was cut.
    resource: async ({ server, uri }) => ({ text: mapResourceContents(await find(server).readResource(uri)).slice(0, MAX_MCP_RESOURCE_CHARS + 1) }),
    // A stdio server without a folder of its own starts where the saved ones would.
    test: ({ config }) => testServer(config, actions.workspace() ?? process.cwd()),
    signIn: ({ server }) => actions.oauth.signIn(find(server)),
    signOut: async ({ server }) => {
      const conn = find(server);
      await actions.oauth.signOut(conn);
      return { server: conn.status() };
    },
    credentials: () => actions.oauth.credentials(),
  };
  return (Object.keys(MCP_METHODS) as (keyof McpMethods)[]).map((name) => ({
    kind: 'method',
    name,
    call: (raw: unknown) => (handlers[name] as (args: unknown) => unknown)(MCP_METHODS[name].args.parse(raw)),
  }));
}
