import { z } from 'zod';
import { McpServerName } from './mcp-server-config.ts';

// The servers, prompts and resources as the MCP plugin reports them and Settings and the composer show them.

/** `unauthorized`: an HTTP server answered 401 or 403; its error says what to add. */
export const McpServerState = z.enum(['off', 'connecting', 'connected', 'failed', 'unauthorized']);
export type McpServerState = z.infer<typeof McpServerState>;

export const McpServerView = z.object({
  name: z.string(),
  /** `file` for mcp.json in the data folder (edit it there), `settings` for servers added here. */
  source: z.enum(['file', 'settings']),
  transport: z.enum(['stdio', 'http', 'sse']),
  state: McpServerState,
  /** Why it failed, with the end of the server's stderr where there is one. */
  error: z.string().nullable(),
  tools: z.number().int().nonnegative(),
  resources: z.number().int().nonnegative(),
  prompts: z.number().int().nonnegative(),
  /**
   * OAuth sign-in, for an HTTP server whose authorization server Amber found: `needed` (it answered 401, or
   * a refresh failed: `error` says why), `waiting` (a sign-in page is open in the browser), `signedIn`
   * (Amber holds its tokens, in the key file). Absent: the server does not sign in with OAuth.
   */
  signIn: z.enum(['needed', 'waiting', 'signedIn']).optional(),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** A server prompt, offered as the slash command `/mcp.<server>.<prompt> args…`. */
export const McpPromptView = z.object({
  server: McpServerName,
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  description: z.string().max(1000).default(''),
  /** In the order positional arguments fill them. */
  arguments: z
    .array(z.object({ name: z.string().min(1).max(128), required: z.boolean().default(false) }))
    .max(32)
    .default([]),
});
export type McpPromptView = z.infer<typeof McpPromptView>;

/** A resource a server lists, for the composer's attach menu. */
export const McpResourceView = z.object({
  server: McpServerName,
  uri: z.string().min(1).max(4096),
  name: z.string().max(256).default(''),
});
export type McpResourceView = z.infer<typeof McpResourceView>;

/** At most this much of a resource goes into a message; the rest is cut with a note. */
export const MAX_MCP_RESOURCE_CHARS = 100_000;
