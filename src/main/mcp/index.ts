export { MCP_CONFIG_KEY, MCP_PLUGIN_ID, McpPluginReport, McpService } from './mcp-service.ts';
export type { McpServiceOptions } from './mcp-service.ts';
export { configToForm, formToConfig, stringRecord } from './mcp-server-form.ts';
export { MCP_JSON, readMcpJson } from './mcp-json.ts';
export type { McpJson } from './mcp-json.ts';
export { McpServerSettings } from './mcp-server-settings.ts';
export { mcpServerTools } from './mcp-server-tools.ts';
export type { McpServerSettingsOptions } from './mcp-server-settings.ts';
