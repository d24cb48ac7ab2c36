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
