// Amber's tool names are 1-64 letters, digits, _ or -. An MCP tool becomes `mcp__<server>__<tool>`, with
// every other character replaced by `_`, cut to 64, and a `_2`, `_3`… suffix when the name is taken.

export const MAX_TOOL_NAME = 64;

const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/** A name for `tool` of `server` not in `taken` (which it is added to), and whether it had to change. */
export function mcpToolName(server: string, tool: string, taken: Set<string>): { name: string; changed: boolean } {
  const wanted = `mcp__${clean(server)}__${clean(tool)}`;
  let name = wanted.slice(0, MAX_TOOL_NAME);
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = wanted.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
  }
  taken.add(name);
  return { name, changed: name !== `mcp__${server}__${tool}` };
}
