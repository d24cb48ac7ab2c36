import type { CommandContribution, CommandResult } from '../../workers/sdk/index.ts';
import type { McpConnection, McpServerStatus } from './mcp-connection.ts';
import { blockText } from './mcp-result.ts';

// `/mcp list | connect NAME | disconnect NAME | restart NAME | reload | prompt NAME PROMPT [key=value…]`.
// `list --json` answers the servers' status as JSON, for Settings.

export interface McpCommandState {
  servers: Map<string, McpConnection>;
  problems: string[];
}

export interface McpCommandActions {
  reload(): Promise<void>;
  statuses(): McpServerStatus[];
}

const MAN = `mcp list [--json]          the servers, their state and what they offer
mcp connect NAME           connects a server (reconnects a failed one at once)
mcp disconnect NAME        closes its connection and ends its process; its tools go
mcp restart NAME           disconnects and connects again
mcp reload                 reads mcp.json and the stored servers again
mcp prompt NAME PROMPT [key=value…]   gets a server's prompt with its arguments`;

export function describeStatus(s: McpServerStatus): string {
  const counts = `${s.tools} tools, ${s.resources} resources, ${s.prompts} prompts`;
  if (s.state === 'connected') return `${s.name} (${s.transport}): connected — ${counts}`;
  if (s.state === 'failed') return `${s.name} (${s.transport}): failed — ${s.error ?? 'no reason given'}`;
  return `${s.name} (${s.transport}): ${s.state === 'off' ? 'disconnected' : 'connecting'}`;
}

export function mcpCommand(state: McpCommandState, actions: McpCommandActions): CommandContribution {
  const find = (name: string | undefined): McpConnection => {
    const conn = name ? state.servers.get(name) : undefined;
    if (!conn) throw new Error(name ? `There is no MCP server '${name}'. /mcp list names them.` : 'Name the server: /mcp connect NAME.');
    return conn;
  };
  return {
    kind: 'command',
    path: ['mcp'],
    help: 'MCP servers: list, connect, disconnect, restart, reload, prompt.',
    man: MAN,
    async run(args): Promise<CommandResult | string> {
      const [verb = 'list', name, ...rest] = args;
      switch (verb) {
        case 'list': {
          if (name === '--json') return JSON.stringify({ servers: actions.statuses(), problems: state.problems });
          const lines = actions.statuses().map(describeStatus);
          return [...(lines.length ? lines : ['No MCP servers: add them in Settings → MCP servers, or in mcp.json in the data folder.']), ...state.problems].join('\n');
        }
        case 'connect': {
          const conn = find(name);
          if (conn.state === 'failed') await conn.restart();
          else await conn.connect();
          return { output: describeStatus(conn.status()), isError: conn.state !== 'connected' };
        }
        case 'disconnect': {
          const conn = find(name);
          await conn.disconnect();
          return describeStatus(conn.status());
        }
        case 'restart': {
          const conn = find(name);
          await conn.restart();
          return { output: describeStatus(conn.status()), isError: conn.state !== 'connected' };
        }
        case 'reload':
          await actions.reload();
          return `${state.servers.size} MCP server(s) configured.`;
        case 'prompt': {
          const conn = find(name);
          const [prompt, ...pairs] = rest;
          if (!prompt) return { output: `Name the prompt: ${conn.prompts.map((p) => p.name).join(', ') || 'the server offers none'}.`, isError: true };
          const values = Object.fromEntries(pairs.map((p) => [p.slice(0, Math.max(0, p.indexOf('='))), p.slice(p.indexOf('=') + 1)]).filter(([k]) => k !== ''));
          const result = await conn.getPrompt(prompt, values);
          return result.messages.map((m) => blockText(m.content as { type?: unknown })).join('\n\n');
        }
        default:
          return { output: `Unknown: /mcp ${verb}. ${MAN}`, isError: true };
      }
    },
  };
}
