import { z } from 'zod';
import { MAX_MCP_RESOURCE_CHARS, McpResourceView, McpServerName, McpServerView } from '../mcp/index.ts';

// The MCP plugin's own shapes (server config, the servers' views, prompts and resources) live in
// src/shared/mcp, below this contract and the plugin alike; the window reaches them from here too.
export {
  MAX_MCP_RESOURCE_CHARS,
  MCP_SERVER_NAME_RULE,
  McpHttpServer,
  McpPromptView,
  McpResourceView,
  McpServerConfig,
  McpServerName,
  McpServersFile,
  McpServerState,
  McpServerView,
  McpSignInPage,
  McpStdioServer,
  McpTestResult,
  McpToolView,
} from '../mcp/index.ts';

// MCP servers as the user configures them and as Settings shows them. The configuration is the
// `mcpServers` format other desktop apps and editors use (`{"mcpServers": {"name": {"command", "args",
// "env", "cwd"} | {"url", "headers"}}}`) plus Amber's `timeoutMs` per server.

/** What the MCP plugin keeps in its stored config: the servers added in Settings, and the names switched off. */
export const McpStoredConfig = z.object({
  servers: z.record(z.string(), z.unknown()).default({}),
  off: z.array(McpServerName).default([]),
});
export type McpStoredConfig = z.infer<typeof McpStoredConfig>;

export const McpListing = z.object({
  /** The MCP plugin runs (servers connect only while it does). */
  pluginActive: z.boolean(),
  servers: z.array(McpServerView),
  /** Sentences about servers that could not be read (the others still load). */
  problems: z.array(z.string()),
  /** Where a stdio server without a working folder of its own starts: the default workspace (known while the plugin runs). */
  defaultFolder: z.string().max(4096).optional(),
});
export type McpListing = z.infer<typeof McpListing>;

/** Where main keeps the user's trust in MCP servers and tools. No plugin can write it: it is not a plugin's config. */
export const MCP_TRUST_KEY = 'mcp.trust';

/** An MCP tool as Amber names it: `mcp__<server>__<tool>`. */
export const McpToolName = z.string().regex(/^mcp__[a-zA-Z0-9_-]{1,59}$/, 'an MCP tool name is mcp__<server>__<tool>');

/**
 * What the user trusts, set in Settings. MCP tools are write tools for the policy until then: a trusted
 * server's tools that carry `readOnlyHint` run as read-only, and a trusted tool runs as read-only whatever
 * its annotations say.
 */
export const McpTrust = z.object({
  servers: z.array(McpServerName).max(256).default([]),
  tools: z.array(McpToolName).max(4096).default([]),
});
export type McpTrust = z.infer<typeof McpTrust>;

/** A change of trust: a whole server, or one tool by its Amber name. */
export const McpSetTrust = z.union([z.object({ server: McpServerName, trusted: z.boolean() }), z.object({ tool: McpToolName, trusted: z.boolean() })]);
export type McpSetTrust = z.infer<typeof McpSetTrust>;

/** The stored trust; anything unreadable trusts nothing. */
export function parseMcpTrust(raw: string | null): McpTrust {
  try {
    const parsed = McpTrust.safeParse(JSON.parse(raw ?? '{}'));
    return parsed.success ? parsed.data : { servers: [], tools: [] };
  } catch {
    return { servers: [], tools: [] };
  }
}

/** Whether the user's trust lets the MCP tool `toolName` run as read-only. */
export function mcpTrustCovers(trust: McpTrust, toolName: string, readOnlyHint: boolean): boolean {
  if (trust.tools.includes(toolName)) return true;
  return readOnlyHint && trust.servers.some((s) => toolName.startsWith(`mcp__${s}__`));
}

export const McpResourceList = z.object({ resources: z.array(McpResourceView) });
export type McpResourceList = z.infer<typeof McpResourceList>;

export const McpReadResource = z.object({ server: McpServerName, uri: z.string().min(1).max(4096) });
export type McpReadResource = z.infer<typeof McpReadResource>;

export const McpResourceText = z.object({
  server: McpServerName,
  uri: z.string(),
  text: z.string().max(MAX_MCP_RESOURCE_CHARS),
  /** The resource was longer than MAX_MCP_RESOURCE_CHARS. */
  truncated: z.boolean(),
});
export type McpResourceText = z.infer<typeof McpResourceText>;

// ── The Add server / Edit form ────────────────────────────────────────────────
// Checked in the form as the user types and again by main on arrival: a request that fails here changes
// nothing. Every message says what to change.

const noControl = (what: string, allowed: RegExp) =>
  z
    .string()
    .max(8192, `${what} is longer than 8192 characters.`)
    .refine((v) => !allowed.test(v), `${what} may not contain line breaks or NUL characters.`);

/** An environment variable's name as a shell would take it. */
export const McpEnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'An environment variable name is letters, digits and _, and does not start with a digit.');
/** A header name: letters, digits and - (what HTTP servers expect, and no dots, so it stays a key of its own). */
export const McpHeaderName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,127}$/, 'A header name is letters, digits and -, with no spaces or colons.');

/**
 * A variable or header. A secret one's stored value never leaves main: the form gets it with value '' and
 * `keep: true`, and sends it back that way to keep it, or with a new value and `keep: false`.
 */
const pair = <N extends z.ZodType<string>>(name: N, value: z.ZodType<string>) =>
  z.strictObject({
    name,
    value,
    secret: z.boolean().default(false),
    keep: z.boolean().default(false),
  });
export const McpEnvPair = pair(McpEnvName, noControl('An environment value', /\0/));
export type McpEnvPair = z.infer<typeof McpEnvPair>;
export const McpHeaderPair = pair(McpHeaderName, noControl('A header value', /[\r\n\0]/));
export type McpHeaderPair = z.infer<typeof McpHeaderPair>;

/** Seconds a call may take (1 s to 1 h); unset, 60 s. */
const TimeoutSeconds = z
  .number({ error: 'The call timeout is a whole number of seconds.' })
  .int('The call timeout is a whole number of seconds.')
  .min(1, 'The call timeout is at least 1 second.')
  .max(3600, 'The call timeout is at most 3600 seconds (an hour).')
  .optional();

const unique = (pairs: { name: string }[], fold: boolean) => {
  const seen = new Set<string>();
  for (const p of pairs) {
    const key = fold ? p.name.toLowerCase() : p.name;
    if (seen.has(key)) return p.name;
    seen.add(key);
  }
  return null;
};

/** An absolute folder: `/…`, or `C:\\…` on Windows. */
const isAbsoluteFolder = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

export const McpStdioForm = z
  .strictObject({
    transport: z.literal('stdio'),
    command: z
      .string()
      .trim()
      .min(1, 'Enter the command that starts the server (found on PATH, or a full path).')
      .max(4096, 'The command is longer than 4096 characters.'),
    args: z.array(noControl('An argument', /\0/)).max(256, 'A server takes at most 256 arguments.').default([]),
    /** '' starts the server in the default workspace. */
    cwd: z
      .string()
      .trim()
      .max(4096, 'The working folder is longer than 4096 characters.')
      .refine((v) => v === '' || isAbsoluteFolder(v), 'The working folder must be a full path (starting with /), or empty for the default workspace.')
      .default(''),
    env: z.array(McpEnvPair).max(100, 'A server takes at most 100 environment variables.').default([]),
    timeoutSeconds: TimeoutSeconds,
  })
  .superRefine((form, ctx) => {
    const twice = unique(form.env, false);
    if (twice) ctx.addIssue({ code: 'custom', path: ['env'], message: `The environment variable ${twice} is set twice; keep one.` });
  });
export type McpStdioForm = z.infer<typeof McpStdioForm>;

export const McpHttpForm = z
  .strictObject({
    transport: z.literal('http'),
    url: z
      .string()
      .trim()
      .max(4096, 'The URL is longer than 4096 characters.')
      .refine(
        (v) => /^https?:\/\/[^\s/?#@]+([/?#]\S*)?$/i.test(v),
        'Enter the server URL, starting with http:// or https:// (for example http://127.0.0.1:3001/mcp).',
      ),
    headers: z.array(McpHeaderPair).max(100, 'A server takes at most 100 headers.').default([]),
    /** The OAuth client id to sign in with, where the server's authorization server does not let Amber register itself; absent or '' for none. */
    oauthClientId: z
      .string()
      .trim()
      .max(512, 'The OAuth client id is longer than 512 characters.')
      .refine((v) => !/[\s\0]/.test(v), 'The OAuth client id may not contain spaces, line breaks or NUL characters.')
      .optional(),
    timeoutSeconds: TimeoutSeconds,
  })
  .superRefine((form, ctx) => {
    const twice = unique(form.headers, true);
    if (twice) ctx.addIssue({ code: 'custom', path: ['headers'], message: `The header ${twice} is set twice; keep one.` });
  });
export type McpHttpForm = z.infer<typeof McpHttpForm>;

export const McpServerForm = z.discriminatedUnion('transport', [McpStdioForm, McpHttpForm], { error: 'A server is either stdio (a command) or http (a URL).' });
export type McpServerForm = z.infer<typeof McpServerForm>;

/** Adds a server (no `previousName`) or replaces the one named `previousName` (renamed when the names differ). */
export const McpSaveServer = z.strictObject({
  name: McpServerName,
  previousName: McpServerName.optional(),
  server: McpServerForm,
});
export type McpSaveServer = z.infer<typeof McpSaveServer>;

/** A server added in Settings as its Edit form shows it: secret values left out (value '', `keep: true`). */
export const McpServerDetails = z.object({ name: McpServerName, server: McpServerForm });
export type McpServerDetails = z.infer<typeof McpServerDetails>;

/** Whether a header's value is always secret, whatever the form says. */
export const isSecretHeader = (name: string): boolean => name.toLowerCase() === 'authorization';

/**
 * Where a server's stored values (environment variables, headers) are sent, as one comparable text: its
 * command and arguments, or its URL (a stored server or a form). When it changes, the stored values go:
 * they were entered for the old one.
 */
export function mcpServerTarget(server: { command?: unknown; args?: unknown; url?: unknown }): string {
  if (typeof server.url === 'string') return JSON.stringify(['http', server.url.trim()]);
  return JSON.stringify(['stdio', typeof server.command === 'string' ? server.command.trim() : null, Array.isArray(server.args) ? server.args : []]);
}

/** One tool of a connected server as Settings lists it, with the name Amber gives it (what trust is kept by). */
export const McpServerTool = z.object({
  server: McpServerName,
  /** `mcp__<server>__<tool>`. */
  tool: McpToolName,
  description: z.string().max(2000).optional(),
  /** The server says the tool only reads (a claim the policy believes only for a trusted server). */
  readOnlyHint: z.boolean(),
});
export type McpServerTool = z.infer<typeof McpServerTool>;
