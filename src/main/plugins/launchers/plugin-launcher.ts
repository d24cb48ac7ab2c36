// How main starts a plugin process. Two launchers share this shape: `fork-launcher.ts` (a Node child with a
// newline-delimited JSON pipe, for the headless shell and tests) and `../electron/utility-launcher.ts`
// (Electron's utilityProcess).
import { peekEnvelope } from '../../../shared/plugins/index.ts';

export interface PluginExit {
  code: number | null;
  signal: string | null;
  /**
   * Why it ended, when the launcher knows better than the code or signal: it ran out of memory, or it was
   * stopped for breaking the pipe's framing. Completes "The plugin's process …".
   */
  reason?: string;
}

/** "was killed (SIGKILL)", "exited with code 1", or the launcher's reason: completes "its process …". */
export function describeExit(exit: PluginExit): string {
  if (exit.reason) return exit.reason;
  return exit.signal ? `was killed (${exit.signal})` : `exited with code ${exit.code}`;
}

/**
 * One message as it came off the pipe, not yet trusted. Its size is known before it is decoded, so main can
 * refuse a message that is too large without building it.
 */
export interface PipeFrame {
  /** Its serialized size in bytes (the line's length; for a structured clone, its measured size). */
  readonly bytes: number;
  /** Decodes it; throws when it is not a message (a line that is not JSON, a value that is not plain data). */
  read(): unknown;
  /** Its channel and call id, read without decoding it whole, to answer a message that is refused. */
  peek(): { ch?: string; id?: string };
  /**
   * From a shared plugin host: the plugin the message is for, and the message itself as a frame of its own,
   * found without decoding the message whole. Null when it names no plugin (or names one badly).
   */
  route?(): { pluginId: string; frame: PipeFrame } | null;
}

/** Main's end of one plugin process and its one pipe. */
export interface PluginProcess {
  readonly pid: number | undefined;
  /** False once the pipe is closed. */
  readonly connected: boolean;
  /** Sends when the pipe is open; returns false (and sends nothing) otherwise. Never throws. */
  send(message: unknown): boolean;
  /**
   * True while messages to the process pile up unread (it is not reading its pipe). Main then answers none
   * of its calls, so a plugin that floods without reading cannot grow main's write queue without bound.
   */
  readonly congested?: boolean;
  /** Bytes main has written to the pipe that the process has not read yet, where the launcher knows. */
  readonly queuedBytes?: number;
  /** Every frame the process sends; the listener decides what to trust. */
  onMessage(listener: (frame: PipeFrame) => void): void;
  /** Called once, when the process has exited (or could not start). */
  onExit(listener: (exit: PluginExit) => void): void;
  /** Output the process writes outside the pipe, for the plugin's log; the launcher throttles it. */
  onOutput(listener: (stream: 'stdout' | 'stderr', text: string) => void): void;
  /** Closes the pipe: the plugin host exits by itself when it notices. */
  disconnect(): void;
  /** Ends the process and every process it started (its group and, on Linux, all its descendants). */
  kill(signal?: 'SIGTERM' | 'SIGKILL'): void;
}

export interface LaunchRequest {
  /** The plugin, or for a shared host the name of its group (see shared-host-launcher.ts). */
  pluginId: string;
  /** Start a shared plugin host: one process that carries several plugins, each on a channel of its own. */
  shared?: boolean;
  /** Start the process with FRUGAL_V8_FLAGS (a bundled plugin whose manifest says `"memory": "frugal"`). */
  frugal?: boolean;
}

/**
 * V8 flags of a frugal plugin process: semi-spaces of 1 MB (the young generation is garbage a moment later, and V8's
 * default of 16 MB each is memory held for it) and WebAssembly from the baseline compiler (Liftoff) only: the
 * optimising tier's compilation of a grammar's huge functions took about 450 MB for a second, and its code 80 MB
 * more, while the baseline code parses at about two thirds of the speed.
 */
export const FRUGAL_V8_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--liftoff-only'];

export type PluginLauncher = (request: LaunchRequest) => PluginProcess;

/** Variables a plugin process may inherit from main, by exact (upper-case) name; and LC_* besides. */
const INHERITED_ENV = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  // Where the user pointed Amber's workspace: the workspace tools fall back to it, as main does.
  'AMBER_WORKSPACE',
  // Windows: without these, Node and the OS libraries it loads misbehave.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
]);

/**
 * The environment of a plugin process: the allow-listed part of `source` (never another provider's key,
 * never NODE_OPTIONS) plus what the launcher sets. Proxy variables pass in both cases. The result has no
 * prototype, so nothing inherited can slip into the child's environment.
 */
export function pluginEnvironment(source: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.create(null) as NodeJS.ProcessEnv;
  for (const key of Object.keys(source)) {
    const upper = key.toUpperCase();
    const value = source[key];
    if (typeof value === 'string' && (INHERITED_ENV.has(upper) || upper.startsWith('LC_'))) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) env[key] = value;
  return env;
}

/** "1 MB", "16 KB", "512 bytes": sizes in the sentences the pipe's limits produce. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * How a shared plugin host marks which plugin a line is for: the envelope's first field, `"p"`, so that the
 * rest of the line, reopened with `{`, is the plugin's own envelope, byte for byte.
 */
const ROUTE_PREFIX = /^\{"p":"([a-z0-9_]{1,64})",(?="ch":)/;
const OPEN_BRACE = 0x7b;

/** A frame for one line of newline-delimited JSON (what the fork launcher reads off its pipe), decoded only when read. */
export function lineFrame(line: string | Uint8Array): PipeFrame {
  const buffer = typeof line === 'string' ? Buffer.from(line) : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  return {
    bytes: buffer.byteLength,
    read: () => JSON.parse(buffer.toString('utf8')) as unknown,
    // Only the ends: a message too large to accept is never decoded whole.
    peek: () =>
      peekEnvelope(
        buffer.byteLength <= 512 ? buffer.toString('utf8') : `${buffer.toString('utf8', 0, 256)}${buffer.toString('utf8', buffer.byteLength - 256)}`,
      ),
    route() {
      const match = ROUTE_PREFIX.exec(buffer.toString('latin1', 0, 96));
      if (!match?.[1]) return null;
      // The plugin's envelope is the rest of the line behind a `{` written over the prefix's last byte.
      const inner = Buffer.allocUnsafe(buffer.byteLength - match[0].length + 1);
      inner[0] = OPEN_BRACE;
      buffer.copy(inner, 1, match[0].length);
      return { pluginId: match[1], frame: lineFrame(inner) };
    },
  };
}
