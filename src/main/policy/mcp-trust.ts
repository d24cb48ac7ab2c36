import { type McpTrust, mcpTrustCovers } from '../../shared/api/index.ts';
import type { ToolRequest } from './tool-gate.ts';

/** The bundled plugin whose tools are the user's MCP servers' tools. */
export const MCP_PLUGIN_ID = 'mcp';

/**
 * The policy's answer for a tool of the bundled MCP plugin: its `readOnly` is the server's `readOnlyHint`,
 * a claim that holds only as far as the user trusts the server or the tool (stored by main under
 * `mcp.trust`). `undefined` for every other tool.
 */
export function mcpReadOnlyTrust(request: ToolRequest, trust: () => McpTrust): boolean | undefined {
  const origin = request.origin;
  if (origin === undefined || !origin.bundled || origin.pluginId !== MCP_PLUGIN_ID) return undefined;
  return mcpTrustCovers(trust(), request.tool.name, request.tool.readOnly);
}
