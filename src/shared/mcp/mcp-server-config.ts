import { z } from 'zod';

// MCP servers as the user configures them: the `mcpServers` format other desktop apps and editors use
// (`{"mcpServers": {"name": {"command", "args", "env", "cwd"} | {"url", "headers"}}}`) plus Amber's `timeoutMs`
// per server. Below both the window's contract and the MCP plugin, which loads only this folder.

/**
 * A server's name: what `mcp__<name>__…` and `/mcp … NAME` use. No `__` and no `_` at its end, so the
 * server part of a tool name is never in doubt (trust in `a` must not cover a server `a__b` or `a_`).
 */
export const McpServerName = z
  .string()
  .regex(/^(?!.*__)(?!.*_$)[a-zA-Z0-9_-]{1,64}$/, 'a server name is 1-64 letters, digits, _ or -, with no __ and not ending in _');
/** The rule a server name follows, in words for the user. */
export const MCP_SERVER_NAME_RULE = '1-64 letters, digits, _ or -, with no __ and not ending in _';

const Common = {
  disabled: z.boolean().optional(),
  /** Per call; 60 s unless set. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
};
export const McpStdioServer = z.object({
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(4096)).max(256).default([]),
  env: z.record(z.string(), z.string()).default({}),
  /** Where the server starts; unset, the default workspace (servers are shared by every conversation). */
  cwd: z.string().min(1).max(4096).optional(),
  /** The variables marked secret in Settings: their values are never shown again (every value is kept in the key file). */
  secretEnv: z.array(z.string().max(128)).max(100).optional(),
  ...Common,
});
export type McpStdioServer = z.infer<typeof McpStdioServer>;
export const McpHttpServer = z.object({
  url: z.url().max(4096),
  headers: z.record(z.string(), z.string()).default({}),
  /** The headers marked secret in Settings (Authorization always is): their values are never shown again. */
  secretHeaders: z.array(z.string().max(128)).max(100).optional(),
  /**
   * The OAuth client id to sign in with, where the server's authorization server offers neither dynamic
   * registration nor client ID metadata documents (the user registered Amber there by hand). Unset: Amber
   * registers itself.
   */
  oauthClientId: z.string().min(1).max(512).optional(),
  ...Common,
});
export type McpHttpServer = z.infer<typeof McpHttpServer>;
export const McpServerConfig = z.union([McpStdioServer, McpHttpServer]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** A pasted or loaded `mcpServers` document; each server is checked on its own. */
export const McpServersFile = z.object({ mcpServers: z.record(z.string(), z.unknown()) });
export type McpServersFile = z.infer<typeof McpServersFile>;
