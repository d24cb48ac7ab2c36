import { dirname, join } from 'node:path';
import {
  jsonLimitExceeded,
  MAX_DECLARATIONS,
  MAX_TOOL_DESCRIPTION_CHARS,
  MAX_TOOL_SCHEMA_BYTES,
  MAX_TOOL_SCHEMA_DEPTH,
  MAX_TOOL_SCHEMA_NODES,
} from '../../shared/plugins/index.ts';
import { definePlugin, type PluginContext, type ToolContribution } from '../../workers/sdk/index.ts';
import { loadServers } from './mcp-config.ts';
import { McpConnection, type McpServerStatus } from './mcp-connection.ts';
import { type McpCatalog, mcpCommand } from './mcp-command.ts';
import { mcpMethods } from './mcp-methods.ts';
import { McpOAuthSessions } from './mcp-oauth-sessions.ts';
import { mapCallResult, mapResourceContents, resourceImages } from './mcp-result.ts';
import { mcpToolName } from './mcp-tool-name.ts';
import { shareTools } from './share-tools.ts';

// The MCP plugin: connects the user's MCP servers (from `mcp.json` in the data folder and the plugin's
// stored `servers`) and offers their tools to the model as `mcp__<server>__<tool>`, set at run time with
// ctx.setTools so the list follows connects, restarts and list_changed notifications. A tool's `readOnly`
// carries the server's `readOnlyHint`; it is a claim, not a fact: the policy treats MCP tools as write tools
// until the user trusts the server or the tool in Settings (main keeps that trust; this plugin cannot).

/** Emitted with every server's status whenever one changes. */
export const MCP_SERVERS_TOPIC = 'mcp.serversChanged';

export interface McpPluginState {
  ctx: PluginContext | null;
  servers: Map<string, McpConnection>;
  /** What the user is told is wrong: the servers that could not be read, then the tools left out. */
  problems: string[];
  /** The servers that could not be read, from the last reload. */
  configProblems: string[];
  /** OAuth sign-in: the HTTP servers' clients and the credentials main keeps in the key file. */
  oauth: McpOAuthSessions;
}

const state: McpPluginState = { ctx: null, servers: new Map(), problems: [], configProblems: [], oauth: new McpOAuthSessions(() => void publish()) };
/** The tools-left-out sentences last logged, so that each is logged once, not at every publish. */
let loggedToolProblems = new Set<string>();

export function statuses(): McpServerStatus[] {
  return [...state.servers.values()].map((s) => s.status());
}

const PROMPT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Per server, at most this many prompts and resources are offered to the composer. */
const MAX_LISTED = 200;

/** The connected servers' prompts (as slash commands) and resources (for the attach menu). */
export function catalog(): McpCatalog {
  const prompts: McpCatalog['prompts'] = [];
  const resources: McpCatalog['resources'] = [];
  for (const conn of state.servers.values()) {
    if (conn.state !== 'connected') continue;
    for (const p of conn.prompts.filter((x) => PROMPT_NAME.test(x.name)).slice(0, MAX_LISTED)) {
      prompts.push({
        server: conn.name,
        name: p.name,
        description: (p.description ?? '').slice(0, 1000),
        arguments: (p.arguments ?? []).slice(0, 32).map((a) => ({ name: a.name.slice(0, 128), required: a.required === true })),
      });
    }
    for (const r of conn.resources.filter((x) => x.uri.length <= 4096).slice(0, MAX_LISTED))
      resources.push({ server: conn.name, uri: r.uri, name: (r.name ?? '').slice(0, 256) });
  }
  return { prompts, resources };
}

let publishing = false;
let dirty = false;
let announced = false;

/** Sends the tool set and the servers' status; calls that come while one is on its way are coalesced. */
async function publish(): Promise<void> {
  if (!announced) {
    announced = true;
    queueMicrotask(() => {
      announced = false;
      state.ctx?.events.emit(MCP_SERVERS_TOPIC, {
        servers: statuses(),
        problems: state.problems,
        ...catalog(),
        workspace: state.ctx.workspace,
        credentialsRevision: state.oauth.revision,
      });
    });
  }
  if (publishing) {
    dirty = true;
    return;
  }
  publishing = true;
  try {
    do {
      dirty = false;
      await state.ctx?.setTools(buildTools());
    } while (dirty);
  } catch (e) {
    state.ctx?.log.error(`The MCP tools could not be offered: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    publishing = false;
  }
}

const fitsLimits = (parameters: Record<string, unknown>) =>
  jsonLimitExceeded(parameters, { depth: MAX_TOOL_SCHEMA_DEPTH, bytes: MAX_TOOL_SCHEMA_BYTES, nodes: MAX_TOOL_SCHEMA_NODES }) === null;

/**
 * The tool set of every connected server. A plugin offers at most MAX_DECLARATIONS tools, so a server that
 * lists more than its share (see shareTools) offers its first ones and the rest are left out with a
 * warning, instead of the whole set being refused.
 */
function buildTools(): ToolContribution[] {
  const taken = new Set<string>();
  const tools: ToolContribution[] = [];
  const servers = [...state.servers.values()].sort((a, b) => a.name.localeCompare(b.name)).filter((conn) => conn.state !== 'off');
  const listed = servers.map((conn) => conn.tools.filter((tool) => fitsLimits({ type: 'object', properties: {}, ...tool.inputSchema })));
  const shares = shareTools(
    servers.map((conn, i) => listed[i]!.length + (conn.hasResources ? 1 : 0)),
    MAX_DECLARATIONS,
  );
  const toolProblems: string[] = [];
  for (const [i, conn] of servers.entries()) {
    const fits = new Set(listed[i]);
    const tooBig = conn.tools.filter((tool) => !fits.has(tool)).map((tool) => `'${tool.name}'`);
    if (tooBig.length > 0) {
      toolProblems.push(
        `${tooBig.length === 1 ? `The MCP tool ${tooBig[0]}` : `${tooBig.length} MCP tools`} of '${conn.name}' ${tooBig.length === 1 ? 'was' : 'were'} left out: ${tooBig.length === 1 ? 'its input schema is' : `their input schemas are`} over Amber's size limits${tooBig.length > 1 ? ` (${tooBig.slice(0, 5).join(', ')}${tooBig.length > 5 ? ', …' : ''})` : ''}.`,
      );
    }
    const offered = listed[i]!.slice(0, Math.max(0, shares[i]! - (conn.hasResources ? 1 : 0)));
    if (offered.length < listed[i]!.length) {
      toolProblems.push(
        `The MCP server '${conn.name}' lists ${listed[i]!.length} tools; Amber offers at most ${MAX_DECLARATIONS} MCP tools in all, so only its first ${offered.length} are offered (${listed[i]!.length - offered.length} left out). Switch off servers you do not need, or ask the server for fewer tools.`,
      );
    }
    for (const tool of offered) {
      const { name, changed } = mcpToolName(conn.name, tool.name, taken);
      const parameters = { type: 'object', properties: {}, ...tool.inputSchema };
      const hints = Object.entries(tool.annotations ?? {})
        .filter(([k, v]) => k.endsWith('Hint') && typeof v === 'boolean')
        .map(([k, v]) => `${k}=${String(v)}`);
      const note = `\n\n(MCP server '${conn.name}'${changed ? `, tool '${tool.name}'` : ''}${hints.length ? `; annotations: ${hints.join(', ')}` : ''})`;
      const text = tool.description ?? tool.title ?? '';
      tools.push({
        kind: 'tool',
        name,
        description: text.slice(0, MAX_TOOL_DESCRIPTION_CHARS - note.length) + note,
        parameters,
        readOnly: tool.annotations?.readOnlyHint === true,
        pathParams: [],
        async execute(args, { signal, update, callId }) {
          const result = await conn.callTool(tool.name, args, {
            signal: signal as AbortSignal,
            callId,
            onProgress: (progress, total, message) => update?.(`${total ? `${progress}/${total}` : String(progress)}${message ? ` ${message}` : ''}\n`),
          });
          return mapCallResult(result);
        },
      });
    }
    if (conn.hasResources && shares[i]! > 0) {
      const { name } = mcpToolName(conn.name, 'read_resource', taken);
      const some = conn.resources.slice(0, 20).map((r) => `${r.uri}${r.name ? ` (${r.name})` : ''}`);
      const description = `Reads a resource of the MCP server '${conn.name}' by its URI.${some.length ? ` Some it lists:\n${some.join('\n')}` : ''}`;
      tools.push({
        kind: 'tool',
        name,
        description: description.slice(0, MAX_TOOL_DESCRIPTION_CHARS),
        parameters: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI.' } }, required: ['uri'] },
        readOnly: true,
        pathParams: [],
        async execute(args, { signal }) {
          const contents = await conn.readResource(String(args['uri']), signal as AbortSignal);
          const images = resourceImages(contents);
          return { content: [{ type: 'text', text: mapResourceContents(contents) }], ...(images.length > 0 ? { images } : {}), isError: false };
        },
      });
    }
  }
  state.problems = [...state.configProblems, ...toolProblems];
  for (const p of toolProblems) if (!loggedToolProblems.has(p)) state.ctx?.log.warn(p);
  loggedToolProblems = new Set(toolProblems);
  return tools;
}

/** Reads the servers again (mcp.json and the stored ones): new ones connect, removed ones end, changed ones restart. */
export async function reload(): Promise<void> {
  const ctx = state.ctx;
  if (!ctx) return;
  const config = await ctx.configAll();
  const dataDir = typeof config['dataDir'] === 'string' ? config['dataDir'] : null;
  // The plugin's own folder is `<data>/plugin-data/mcp`; mcp.json sits in the data folder itself.
  const mcpJson = typeof config['mcpJson'] === 'string' ? config['mcpJson'] : dataDir ? join(dirname(dirname(dataDir)), 'mcp.json') : null;
  const { servers, problems } = loadServers(mcpJson, config['servers']);
  // Servers the user switched off in Settings stay listed, disconnected.
  const off = new Set(Array.isArray(config['off']) ? config['off'].filter((n): n is string => typeof n === 'string') : []);
  for (const s of servers) if (off.has(s.name)) s.config = { ...s.config, disabled: true };
  state.configProblems = problems;
  state.problems = [...problems];
  for (const p of problems) ctx.log.warn(p);
  const wanted = new Map(servers.map((s) => [s.name, s]));
  // Each server's OAuth credentials, from the key file (main merges them into this plugin's config alone).
  const oauth = typeof config['oauth'] === 'object' && config['oauth'] !== null ? (config['oauth'] as Record<string, unknown>) : {};
  state.oauth.retain(new Set(wanted.keys()));
  for (const [name, conn] of state.servers) {
    const next = wanted.get(name);
    if (!next || JSON.stringify(next) !== JSON.stringify(conn.entry)) {
      state.servers.delete(name);
      await conn.disconnect();
    }
  }
  for (const entry of wanted.values()) {
    if (state.servers.has(entry.name)) continue;
    const provider = state.oauth.providerFor(entry, Object.hasOwn(oauth, entry.name) ? oauth[entry.name] : null);
    const conn = new McpConnection(entry, {
      workspace: ctx.workspace,
      onChange: () => void publish(),
      // A server's form is put to the user through main (in the window, on the card of the call that asked).
      onElicit: (request, signal) =>
        ctx.elicit(
          { source: request.server, message: request.message.slice(0, 4000), fields: request.fields, ...(request.callId ? { callId: request.callId } : {}) },
          signal,
        ),
      ...(provider ? { oauth: provider } : {}),
    });
    state.servers.set(entry.name, conn);
    if (!entry.config.disabled) void conn.connect();
  }
  void publish();
}

export default definePlugin({
  manifest: { id: 'mcp', version: '1.0.0' },

  async initialize(context) {
    state.ctx = context;
    // Servers connect in the background: a slow one must not hold up the plugin's start.
    process.once('exit', () => {
      for (const conn of state.servers.values()) conn.killNow();
    });
    await reload();
    return true;
  },

  async shutdown() {
    const all = [...state.servers.values()];
    state.servers.clear();
    await Promise.all(all.map((c) => c.disconnect()));
    state.ctx = null;
  },

  capabilities: () => {
    const actions = { reload, statuses, catalog, workspace: () => state.ctx?.workspace ?? null, oauth: state.oauth };
    return [mcpCommand(state, actions), ...mcpMethods(state, actions)];
  },
});
