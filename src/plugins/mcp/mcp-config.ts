import { readFileSync } from 'node:fs';
import { MCP_SERVER_NAME_RULE, McpServerConfig, McpServerName, McpServersFile, type McpStdioServer } from '../../shared/mcp/index.ts';

// The servers the user configures, in the `mcpServers` format other desktop apps and editors use:
// `{"mcpServers": {"name": {"command","args","env","cwd"} | {"url","headers"}}}`, plus Amber's own fields
// (`disabled`, `timeoutMs`). They come from `mcp.json` in the data folder and from the plugin's stored
// config (`servers`); a stored server wins over a file one of the same name.

export { McpServerConfig, McpServerName } from '../../shared/mcp/index.ts';
export type { McpHttpServer, McpStdioServer } from '../../shared/mcp/index.ts';

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
  source: 'file' | 'settings';
}

export interface ParsedServers {
  servers: McpServerEntry[];
  /** One sentence per server (or file) that could not be read; the others still load. */
  problems: string[];
}

export function isStdio(config: McpServerConfig): config is McpStdioServer {
  return 'command' in config;
}

/** Reads the `mcpServers` object of a parsed JSON value; each bad entry is a problem, not a failure. */
export function parseMcpServers(value: unknown, source: McpServerEntry['source']): ParsedServers {
  const problems: string[] = [];
  const servers: McpServerEntry[] = [];
  const file = McpServersFile.safeParse(value);
  if (!file.success) return { servers, problems: ['The servers are not in the mcpServers format: {"mcpServers": {"name": {"command": …} or {"url": …}}}.'] };
  for (const [name, raw] of Object.entries(file.data.mcpServers)) {
    if (!McpServerName.safeParse(name).success) {
      problems.push(`The MCP server '${name}' was skipped: a server name is ${MCP_SERVER_NAME_RULE}.`);
      continue;
    }
    const parsed = McpServerConfig.safeParse(raw);
    if (!parsed.success) {
      problems.push(`The MCP server '${name}' was skipped: it needs a "command" (stdio) or a "url" (HTTP) (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
      continue;
    }
    servers.push({ name, config: parsed.data, source });
  }
  return { servers, problems };
}

/** `mcp.json` (absent is fine) merged with the stored servers; stored ones win by name. */
export function loadServers(mcpJsonPath: string | null, stored: unknown, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): ParsedServers {
  const problems: string[] = [];
  const byName = new Map<string, McpServerEntry>();
  if (mcpJsonPath) {
    let text: string | null = null;
    try {
      text = read(mcpJsonPath);
    } catch {
      // No mcp.json: nothing to import.
    }
    if (text !== null) {
      try {
        const fromFile = parseMcpServers(JSON.parse(text), 'file');
        problems.push(...fromFile.problems.map((p) => `${mcpJsonPath}: ${p}`));
        for (const s of fromFile.servers) byName.set(s.name, s);
      } catch (e) {
        problems.push(`${mcpJsonPath} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (stored !== undefined && stored !== null) {
    const fromSettings = parseMcpServers({ mcpServers: stored }, 'settings');
    problems.push(...fromSettings.problems);
    for (const s of fromSettings.servers) byName.set(s.name, s);
  }
  return { servers: [...byName.values()], problems };
}
