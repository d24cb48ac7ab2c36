import { MAX_MCP_RESOURCE_CHARS, promptArguments } from '../../shared/mcp/index.ts';
import type { CommandContribution, CommandResult } from '../../workers/sdk/index.ts';
import type { McpConnection, McpServerStatus } from './mcp-connection.ts';
import { blockText, mapResourceContents } from './mcp-result.ts';

// `/mcp list | connect NAME | disconnect NAME | restart NAME | reload | prompt NAME PROMPT [args…] |
// resource NAME URI`, typed by the user. Main itself calls the plugin's methods (mcp-methods.ts) instead.

export interface McpCommandState {
  servers: Map<string, McpConnection>;
  problems: string[];
}

/** What the composer offers from the connected servers. */
export interface McpCatalog {
  prompts: { server: string; name: string; description: string; arguments: { name: string; required: boolean }[] }[];
  resources: { server: string; uri: string; name: string }[];
}

export interface McpCommandActions {
  reload(): Promise<void>;
  statuses(): McpServerStatus[];
  catalog(): McpCatalog;
  /** The folder stdio servers without one of their own start in. */
  workspace(): string | null;
}

const MAN = `mcp list                   the servers, their state and what they offer
mcp connect NAME           connects a server (reconnects a failed one at once)
mcp disconnect NAME        closes its connection and ends its process; its tools go
mcp restart NAME           disconnects and connects again
mcp reload                 reads mcp.json and the stored servers again
mcp prompt NAME PROMPT [args…]   gets a server's prompt (arguments in order, or key=value)
mcp resource NAME URI      reads a server's resource as text`;

/**
 * A server's prompt as text for the message box, its arguments read from `text` (promptArguments). Throws a
 * sentence when the prompt is unnamed or unknown, or a required argument is missing.
 */
export async function promptText(conn: McpConnection, prompt: string | undefined, text: string | Record<string, string>): Promise<string> {
  if (!prompt) throw new Error(`Name the prompt: ${conn.prompts.map((p) => p.name).join(', ') || 'the server offers none'}.`);
  const declared = conn.prompts.find((p) => p.name === prompt);
  if (!declared) throw new Error(`The server '${conn.name}' has no prompt '${prompt}'; it offers: ${conn.prompts.map((p) => p.name).join(', ') || 'none'}.`);
  const names = (declared.arguments ?? []).map((a) => a.name);
  const values = typeof text === 'string' ? promptArguments(names, text) : Object.fromEntries(Object.entries(text).filter(([k]) => names.includes(k)));
  const missing = (declared.arguments ?? []).filter((a) => a.required && !(a.name in values)).map((a) => a.name);
  if (missing.length)
    throw new Error(
      `The prompt '${prompt}' needs ${missing.join(', ')}: /mcp.${conn.name}.${prompt} ${(declared.arguments ?? []).map((a) => `<${a.name}>`).join(' ')}.`,
    );
  const result = await conn.getPrompt(prompt, values);
  return result.messages.map((m) => blockText(m.content as { type?: unknown })).join('\n\n');
}

export function describeStatus(s: McpServerStatus): string {
  const counts = `${s.tools} tools, ${s.resources} resources, ${s.prompts} prompts`;
  if (s.state === 'connected') return `${s.name} (${s.transport}): connected — ${counts}`;
  if (s.state === 'failed') return `${s.name} (${s.transport}): failed — ${s.error ?? 'no reason given'}`;
  if (s.state === 'unauthorized')
    return `${s.name} (${s.transport}): needs authorization — ${s.error ?? 'add an Authorization header in Settings → MCP servers → Edit'}`;
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
          const lines = actions.statuses().map(describeStatus);
          return [
            ...(lines.length ? lines : ['No MCP servers: add them in Settings → MCP servers, or in mcp.json in the data folder.']),
            ...state.problems,
          ].join('\n');
        }
        case 'connect': {
          const conn = find(name);
          if (conn.state === 'failed' || conn.state === 'unauthorized') await conn.restart();
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
          const [prompt, ...words] = rest;
          try {
            return await promptText(conn, prompt, words.join(' '));
          } catch (e) {
            return { output: e instanceof Error ? e.message : String(e), isError: true };
          }
        }
        case 'resource': {
          const conn = find(name);
          const [uri] = rest;
          if (!uri) return { output: `Name the resource: /mcp resource ${conn.name} URI.`, isError: true };
          // One character past the cap tells main the text was cut.
          return mapResourceContents(await conn.readResource(uri)).slice(0, MAX_MCP_RESOURCE_CHARS + 1);
        }
        default:
          return { output: `Unknown: /mcp ${verb}. ${MAN}`, isError: true };
      }
    },
  };
}
