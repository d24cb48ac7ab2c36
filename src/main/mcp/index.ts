export { MCP_CONFIG_KEY, MCP_PLUGIN_ID, McpPluginReport, McpService } from './mcp-service.ts';
export type { McpServiceOptions } from './mcp-service.ts';
export { configToForm, formToConfig, stringRecord } from './mcp-server-form.ts';
