// Constants both ends of the plugin pipe need. Kept free of zod so a plugin process starts fast.

/** The protocol main and a plugin host speak. A host or plugin built for another version is Incompatible. */
export const PROTOCOL_VERSION = 1;

// Channel tags: every message on the pipe is `{ ch, m }`.
/** main calls PluginApi (requests main→plugin, replies back). */
export const CHANNEL_PLUGIN = 'plugin';
/** the plugin calls HostApi (requests plugin→main, replies back). */
export const CHANNEL_HOST = 'host';
/** sent once by the plugin host when it listens, before main's first call. */
export const CHANNEL_READY = 'ready';
/** sent by main to ask the plugin host to exit (a utility process has no pipe to disconnect). */
export const CHANNEL_CLOSE = 'close';
/**
 * one-way calls, either direction: `m` is a list of `[method, args]`, at most MAX_NOTES_PER_MESSAGE, of the
 * NOTE methods below. Nothing answers them; they keep their place among the calls and replies on the pipe.
 */
export const CHANNEL_NOTE = 'note';
/** The most notes one message carries. */
export const MAX_NOTES_PER_MESSAGE = 32;

// A shared plugin host carries several plugins on one pipe: each envelope then also names its plugin,
// `{ p, ch, m }`, with `p` first. The plugin's own channels are the ones above; these two are the host's.
/** main → shared host: start a channel for plugin `p` (the host answers with `{ p, ch: 'ready' }`). */
export const CHANNEL_OPEN = 'open';
/** shared host → main: plugin `p`'s channel is closed (after main's `{ p, ch: 'close' }`); nothing more comes on it. */
export const CHANNEL_CLOSED = 'closed';
/** What a plugin is called on a shared host's pipe (its id, as the manifest's: `[a-z0-9_]`, at most 64). */
export const ROUTE_ID = /^[a-z0-9_]{1,64}$/;

/** Every HostApi method: the only calls main accepts from a plugin process (a path of length one). */
export const HOST_API_METHODS = [
  '$getConfig',
  '$emit',
  '$subscribe',
  '$unsubscribe',
  '$updateStatus',
  '$updatePanel',
  '$updateWallet',
  '$log',
  '$providerEvent',
  '$toolUpdate',
  '$setTools',
  '$elicit',
  '$elicitCancel',
] as const;
export type HostApiMethod = (typeof HOST_API_METHODS)[number];

/** Every PluginApi method: the only calls a plugin host accepts from main. */
export const PLUGIN_API_METHODS = [
  '$handshake',
  '$initialize',
  '$shutdown',
  '$tick',
  '$executeTool',
  '$cancel',
  '$renderBlock',
  '$streamProvider',
  '$refreshWallet',
  '$checkAllowance',
  '$runCommand',
  '$callMethod',
  '$panelAction',
  '$event',
  '$runHook',
  '$probe',
] as const;
export type PluginApiMethod = (typeof PLUGIN_API_METHODS)[number];

/** The PluginApi methods main sends as notes (CHANNEL_NOTE), never as calls: nothing waits for their answer. */
export const PLUGIN_NOTE_METHODS = ['$event'] as const satisfies readonly PluginApiMethod[];
/**
 * The HostApi methods a plugin host sends as notes (CHANNEL_NOTE); main also takes them as calls. Provider
 * events, and the views a plugin pushes: their answer carried nothing but woke the plugin (main logs a
 * refused one to the plugin's log, as it logs every refused note).
 */
export const HOST_NOTE_METHODS = ['$providerEvent', '$updateStatus', '$updatePanel', '$updateWallet'] as const satisfies readonly HostApiMethod[];
export type PluginNoteMethod = (typeof PLUGIN_NOTE_METHODS)[number];
export type HostNoteMethod = (typeof HOST_NOTE_METHODS)[number];

/**
 * The largest message main accepts from a plugin process (its serialized size), unless the connection is
 * given another. A larger one is refused and counted; the plugin keeps running. Provider event batches and
 * tool outputs must fit in it.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
/**
 * The longest line either end reads from the pipe. Beyond it the framing cannot be trusted any more: the
 * peer that sent it is ended (a plugin) or exits (a plugin host whose main misbehaves).
 */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
