import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServersFile } from '../../shared/api/index.ts';

/** The file other desktop apps and editors keep their MCP servers in, `{"mcpServers": {…}}`, in the data folder. */
export const MCP_JSON = 'mcp.json';

export interface McpJson {
  /** The file is there and could be read (whatever it holds). */
  found: boolean;
  /** Its servers by name, unchecked beyond the mcpServers shape; none when it is missing or unreadable. */
  servers: Record<string, unknown>;
}

/**
 * Reads `mcp.json` in the data folder: the one place main reads it (the MCP plugin reads it in its own
 * process, where it connects the servers). Never throws: a missing file, bad JSON or another shape is no
 * servers.
 */
export function readMcpJson(dataDir: string, read: (path: string) => string = (path) => readFileSync(path, 'utf8')): McpJson {
  let text: string;
  try {
    text = read(join(dataDir, MCP_JSON));
  } catch {
    return { found: false, servers: {} };
  }
  try {
    const file = McpServersFile.safeParse(JSON.parse(text));
    return { found: true, servers: file.success ? file.data.mcpServers : {} };
  } catch {
    return { found: true, servers: {} };
  }
}
