// The MCP plugin's entry: connects the user's MCP servers and offers their tools (see mcp-plugin.ts).
export { default } from './mcp-plugin.ts';
export { MCP_SERVERS_TOPIC } from './mcp-plugin.ts';
export { loadServers, McpServerConfig, McpServerName, parseMcpServers } from './mcp-config.ts';
export type { McpServerEntry, ParsedServers } from './mcp-config.ts';
export { McpConnection } from './mcp-connection.ts';
export type { McpConnectionOptions, McpServerState, McpServerStatus } from './mcp-connection.ts';
export { mapCallResult } from './mcp-result.ts';
export { mcpToolName } from './mcp-tool-name.ts';
export { McpOAuthProvider } from './mcp-oauth-provider.ts';
export type { McpOAuthProviderOptions } from './mcp-oauth-provider.ts';
export { startSignIn } from './mcp-sign-in.ts';
