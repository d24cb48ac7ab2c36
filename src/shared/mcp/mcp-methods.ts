import { z } from 'zod';
import { McpServerName } from './mcp-server-config.ts';
import { MAX_MCP_RESOURCE_CHARS, McpPromptView, McpResourceView, McpServerView } from './mcp-server-views.ts';
import type { PluginMethodTable } from '../plugins/index.ts';

// The MCP plugin's seam for main: the methods it declares (kind 'method') and what each takes and answers.
// Main calls them through its method registry, the plugin parses the arguments with the same schemas.

/** What the MCP plugin reports, pushed on every change and answered by `report`. */
export const McpPluginReport = z.object({
  servers: z.array(McpServerView),
  problems: z.array(z.string()),
  prompts: z.array(McpPromptView).max(2000).default([]),
  resources: z.array(McpResourceView).max(2000).default([]),
  /** The folder stdio servers without one of their own start in. */
  workspace: z.string().max(4096).optional(),
  /** Bumped whenever a server's OAuth credentials change (signed in, refreshed, dropped): main then reads them with `credentials`. */
  credentialsRevision: z.number().int().nonnegative().default(0),
});
export type McpPluginReport = z.infer<typeof McpPluginReport>;

/** An authorization page for the window to open: a web page (http or https), never another scheme. */
export const McpSignInPage = z.object({ url: z.url({ protocol: /^https?$/, error: 'a sign-in page is an http or https URL' }).max(8192) });
export type McpSignInPage = z.infer<typeof McpSignInPage>;

/** One tool a server offers, as Settings lists it: its name on the server, what it says it does, whether it says it only reads. */
export const McpToolView = z.object({
  name: z.string().max(200),
  description: z.string().max(2000).optional(),
  readOnlyHint: z.boolean(),
});
export type McpToolView = z.infer<typeof McpToolView>;

/** What a Test found: connected with the server's tools, or why not. */
export const McpTestResult = z.object({ ok: z.boolean(), message: z.string().max(4000), tools: z.array(McpToolView).max(2000) });
export type McpTestResult = z.infer<typeof McpTestResult>;

const McpPromptName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a prompt name is 1-64 letters, digits, _ or -');

export const MCP_METHODS = {
  /** Every server with its state, the problems, and what the connected ones offer. */
  report: { args: z.object({}).strict(), result: McpPluginReport },
  /** Reads mcp.json and the stored servers again: new ones connect, removed ones end, changed ones restart. */
  reload: { args: z.object({}).strict(), result: z.object({ servers: z.number().int().nonnegative() }) },
  /** Disconnects a server and connects it again. */
  restart: { args: z.object({ server: McpServerName }).strict(), result: z.object({ server: McpServerView }) },
  /** A server's prompt with its arguments by name, as text for the message box; values are sent as given, spaces and all. */
  prompt: {
    args: z.object({ server: McpServerName, prompt: McpPromptName, arguments: z.record(z.string().max(128), z.string().max(100_000)).default({}) }).strict(),
    result: z.object({ text: z.string() }),
  },
  /** A resource as text, cut one character past MAX_MCP_RESOURCE_CHARS so main can tell it was cut. */
  resource: {
    args: z.object({ server: McpServerName, uri: z.string().min(1).max(4096) }).strict(),
    result: z.object({ text: z.string().max(MAX_MCP_RESOURCE_CHARS + 1) }),
  },
  /**
   * Settings' Test button: connects to a server that is not saved (its config as it would be stored, secrets
   * included), lists its tools and disconnects; nothing is kept. `ok` false: `message` says why in words.
   */
  test: { args: z.object({ config: z.record(z.string(), z.unknown()) }).strict(), result: McpTestResult },
  /**
   * Starts the OAuth sign-in of an HTTP server: discovers its authorization server, registers Amber where it
   * must, opens a one-use loopback redirect listener and answers the authorization page's URL for the
   * browser. The rest (the redirect, the code's exchange, the reconnect) follows in the plugin; the report says how it went.
   */
  signIn: { args: z.object({ server: McpServerName }).strict(), result: McpSignInPage },
  /** Forgets a server's OAuth credentials and disconnects it: its row says Sign in again. */
  signOut: { args: z.object({ server: McpServerName }).strict(), result: z.object({ server: McpServerView }) },
  /**
   * Every server's OAuth credentials as one JSON text each (null: none), for main to keep in the key file,
   * never in the database. Read by main when `credentialsRevision` moves; only main calls it.
   */
  credentials: {
    args: z.object({}).strict(),
    result: z.object({
      revision: z.number().int().nonnegative(),
      servers: z.record(
        McpServerName,
        z
          .string()
          .max(64 * 1024)
          .nullable(),
      ),
    }),
  },
} satisfies PluginMethodTable;
export type McpMethods = typeof MCP_METHODS;
export type McpMethodName = keyof McpMethods;
