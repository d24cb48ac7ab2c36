import type { McpServerTool } from '../../shared/api/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';

/** `mcp__<server>__<tool>`: a server's name holds no `__`, so the first one after the prefix ends it. */
const MCP_TOOL = /^mcp__([a-zA-Z0-9_-]+?)__(.+)$/;

/**
 * The MCP servers' tools as Settings lists them, by server, from the tools the MCP plugin has installed
 * (so only connected servers' tools): each with the name trust is kept by and the server's read-only claim.
 */
export function mcpServerTools(specs: readonly ToolSpec[]): McpServerTool[] {
  const out: McpServerTool[] = [];
  for (const spec of specs) {
    const m = MCP_TOOL.exec(spec.name);
    if (!m || spec.name.length > 64) continue;
    out.push({
      server: m[1]!,
      tool: spec.name,
      ...(spec.description ? { description: spec.description.slice(0, 2000) } : {}),
      readOnlyHint: spec.readOnly,
    });
  }
  return out.sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool));
}
