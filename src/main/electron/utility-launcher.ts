// Plugin processes in the desktop app: Electron's utilityProcess, running the same plugin host as the
// child of the headless shell. Electron is only a type here; the shell passes `utilityProcess` in.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { utilityProcess as ElectronUtilityProcess, UtilityProcess } from 'electron';
import {
  findDescendants,
  FRUGAL_V8_FLAGS,
  formatBytes,
  type PipeFrame,
  type PluginExit,
  type PluginLauncher,
  type PluginProcess,
  pluginEnvironment,
  ProcessEvents,
  signalAll,
  throttleOutput,
} from '../plugins/index.ts';
import { CHANNEL_CLOSE, checkPlainData, DEFAULT_MAX_LINE_BYTES, ROUTE_ID } from '../../shared/plugins/index.ts';

export interface UtilityLauncherOptions {
  /** The built plugin host, beside main's bundle (out/main/plugin-host.js). */
  hostEntry?: string;
  execArgv?: string[];
  /** Main's environment, of which a plugin process gets only the allow-listed part (see pluginEnvironment). */
  env?: NodeJS.ProcessEnv;
  /** Bytes per second of stdout+stderr read from a plugin before reading pauses (the plugin then waits). */
  outputBytesPerSecond?: number;
  /** V8 heap limit of a plugin process in MB (default 256). */
  maxHeapMb?: number;
  /** The largest message measured before the plugin is ended for it (default 8 MB), as the fork launcher's line cap. */
  maxFrameBytes?: number;
}

type Fork = Pick<typeof ElectronUtilityProcess, 'fork'>;

export function createUtilityLauncher(utilityProcess: Fork, options: UtilityLauncherOptions = {}): PluginLauncher {
  const hostEntry = options.hostEntry ?? join(import.meta.dirname, 'plugin-host.js');
  const heapMb = options.maxHeapMb ?? 256;
  return ({ pluginId, shared, frugal }) => {
    const marker = `AMBER_PLUGIN_RUN=${randomUUID()}`;
    const child = utilityProcess.fork(hostEntry, [shared ? `--amber-shared=${pluginId}` : `--amber-plugin=${pluginId}`], {
      serviceName: shared ? `Amber plugins (${pluginId})` : `Amber plugin ${pluginId}`,
      stdio: 'pipe',
      execArgv: [...(options.execArgv ?? []), ...(frugal ? FRUGAL_V8_FLAGS : []), `--max-old-space-size=${heapMb}`],
      env: pluginEnvironment(options.env ?? process.env, { AMBER_PLUGIN_ID: pluginId, AMBER_PLUGIN_RUN: marker.slice('AMBER_PLUGIN_RUN='.length) }),
    });
    return wrapUtility(child, {
      outputBytesPerSecond: options.outputBytesPerSecond ?? 256 * 1024,
      heapMb,
      maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_LINE_BYTES,
      marker,
    });
  };
}

/**
 * A structured clone arrives already built, so it is measured (and checked to be plain data) here: the
 * connection then refuses it by size, or drops it as malformed, as it does a line of JSON.
 */
export function cloneFrame(data: unknown, maxFrameBytes: number): PipeFrame {
  const checked = checkPlainData(data, maxFrameBytes);
  return {
    bytes: checked.ok ? checked.bytes : 0,
    read() {
      if (!checked.ok) throw new Error(`The message is not plain data: ${checked.reason}.`);
      return data;
    },
    peek() {
      const envelope = typeof data === 'object' && data !== null ? (data as { ch?: unknown; m?: unknown }) : {};
      const m = typeof envelope.m === 'object' && envelope.m !== null ? (envelope.m as { id?: unknown }) : {};
      return { ...(typeof envelope.ch === 'string' ? { ch: envelope.ch } : {}), ...(typeof m.id === 'string' ? { id: m.id } : {}) };
    },
    route() {
      // A shared host's envelope `{ p, ch, m }`: the plugin's own envelope is the same without `p`.
      if (!checked.ok || typeof data !== 'object' || data === null) return null;
      const { p, ...envelope } = data as { p?: unknown };
      if (typeof p !== 'string' || !ROUTE_ID.test(p)) return null;
      return { pluginId: p, frame: cloneFrame(envelope, maxFrameBytes) };
    },
  };
}

interface WrapOptions {
  outputBytesPerSecond: number;
  heapMb: number;
  maxFrameBytes: number;
  marker: string;
}

export function wrapUtility(child: UtilityProcess, o: WrapOptions): PluginProcess {
  // A UtilityProcess's postMessage has no target origin (it is not window.postMessage).
  const post = (message: unknown) => child.postMessage(message); // oxlint-disable-line unicorn/require-post-message-target-origin
  let exit: PluginExit | null = null;
  let open = true;
  let stopReason: string | undefined;
  let outOfMemory = false;
  const pid = child.pid;
  const events = new ProcessEvents();
  const signalTree = (signal: NodeJS.Signals) => {
    const descendants = pid !== undefined && process.platform === 'linux' ? findDescendants([pid], o.marker) : [];
    if (exit === null) {
      child.kill();
      if (signal === 'SIGKILL' && pid !== undefined) signalAll([pid], 'SIGKILL');
    }
    signalAll(descendants, signal);
  };
  const finish = (e: PluginExit) => {
    open = false;
    if (exit) return;
    const reason = stopReason ?? (outOfMemory ? `ran out of memory (a plugin's heap is limited to ${o.heapMb} MB)` : undefined);
    exit = reason ? { ...e, reason } : e;
    if (pid !== undefined && process.platform === 'linux') signalAll(findDescendants([pid], o.marker), 'SIGKILL');
    events.exit(exit);
  };
  child.on('exit', (code) => finish({ code, signal: null }));
  child.on('error', () => finish({ code: -1, signal: null }));
  child.on('message', (data: unknown) => {
    if (exit) return;
    const frame = cloneFrame(data, o.maxFrameBytes);
    if (frame.bytes > o.maxFrameBytes) {
      stopReason = `was stopped: it sent a message larger than ${formatBytes(o.maxFrameBytes)}`;
      open = false;
      signalTree('SIGKILL');
      return;
    }
    events.message(frame);
  });
  throttleOutput(
    [
      ['stdout', child.stdout],
      ['stderr', child.stderr],
    ],
    o.outputBytesPerSecond,
    (name, text) => {
      if (name === 'stderr' && text.includes('heap out of memory')) outOfMemory = true;
      events.output(name, text);
    },
  );
  return {
    get pid() {
      return child.pid;
    },
    get connected() {
      return open && !exit;
    },
    send(message) {
      if (!open || exit) return false;
      try {
        post(message);
        return true;
      } catch {
        return false;
      }
    },
    onMessage: events.onMessage,
    onExit: events.onExit,
    onOutput: events.onOutput,
    disconnect() {
      if (open && !exit) post({ ch: CHANNEL_CLOSE });
      open = false;
    },
    kill(signal = 'SIGTERM') {
      if (exit) return;
      signalTree(signal);
    },
  };
}
