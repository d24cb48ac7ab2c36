import { z } from 'zod';

/** What main sends first: the protocol it speaks, the plugin to load, its settings and the workspace. */
export const Handshake = z.object({
  protocolVersion: z.number().int(),
  pluginId: z.string(),
  /** Absolute path of the plugin's module. */
  entry: z.string(),
  /** The plugin's config as it is now; `ctx.config` reads it live afterwards. */
  settings: z.record(z.string(), z.unknown()),
  workspace: z.string(),
});
export type Handshake = z.infer<typeof Handshake>;

/** `ok: false` or another protocol version ⇒ the plugin is Incompatible with the reason; nothing is registered. */
export const HandshakeReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), protocolVersion: z.number().int(), hasTick: z.boolean().default(false) }),
  z.object({ ok: z.literal(false), protocolVersion: z.number().int(), reason: z.string() }),
]);
export type HandshakeReply = z.infer<typeof HandshakeReply>;

/**
 * The answer to `$initialize`: `initialized: false` ⇒ Failed, nothing installed. `capabilities` is checked
 * item by item on arrival (an invalid one fails the plugin with the field named), so it is unknown here.
 */
export const InitializeResult = z.discriminatedUnion('initialized', [
  z.object({ initialized: z.literal(true), capabilities: z.array(z.unknown()) }),
  z.object({ initialized: z.literal(false), reason: z.string() }),
]);
export type InitializeResult = z.infer<typeof InitializeResult>;
