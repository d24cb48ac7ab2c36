import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLineBatcher } from '../../../shared/line-batcher.ts';
import { createLineSplitter } from '../../../shared/plugins/index.ts';
import { DEFAULT_MAX_LINE_BYTES } from '../../../shared/plugins/index.ts';
import { throttleOutput } from './output-throttle.ts';
import { ProcessEvents } from './process-events.ts';
import { FRUGAL_V8_FLAGS, formatBytes, lineFrame, type PluginExit, type PluginLauncher, type PluginProcess, pluginEnvironment } from './plugin-launcher.ts';
import { findDescendants, signalAll } from './process-tree.ts';

export interface ForkLauncherOptions {
  /** The plugin host module; by default the built one beside main's bundle, else the TypeScript source. */
  hostEntry?: string;
  /**
   * Node flags for the child, chosen here and never inherited: a child of a test runner or of a debugger
   * would otherwise take its parent's loaders and inspector ports.
   */
  execArgv?: string[];
  /** Main's environment, of which a plugin process gets only the allow-listed part (see pluginEnvironment). */
  env?: NodeJS.ProcessEnv;
  /** Bytes per second of stdout+stderr read from a plugin before reading pauses (the plugin then waits). */
  outputBytesPerSecond?: number;
  /**
   * Node's compile cache for plugin processes (NODE_COMPILE_CACHE), by default Node's own default folder.
   * It keeps type-stripped TypeScript and V8 code, so a plugin host started from sources neither loads the
   * TypeScript stripper again (about 25 MB of resident memory) nor recompiles. `false` turns it off.
   */
  compileCacheDir?: string | false;
  /** V8 heap limit of a plugin process in MB (default 256): a runaway plugin dies "out of memory" there. */
  maxHeapMb?: number;
  /** The longest line read from a plugin's pipe; a longer one ends the plugin (default 8 MB). */
  maxLineBytes?: number;
}

export const DEFAULT_EXEC_ARGV = ['--disable-warning=ExperimentalWarning'];
export const DEFAULT_MAX_HEAP_MB = 256;
/** The pipe's file descriptor in the plugin process (stdin, stdout, stderr, then this). */
export const PLUGIN_PIPE_FD = 3;

export function defaultPluginHostEntry(dir: string = import.meta.dirname): string {
  const built = join(dir, 'plugin-host.js');
  if (existsSync(built)) return built;
  return resolve(dir, '../../../workers/plugin-host/plugin-host-main.ts');
}

/**
 * Starts each plugin as a Node child of its own: stdio piped (throttled), and one more pipe on fd 3 that
 * carries newline-delimited JSON, framed and parsed here (Node's IPC channel would let a plugin end main with
 * one crafted message). The child leads a process group of its own, so that ending it ends everything it
 * started; its heap is capped; its environment is the allow-listed part of main's.
 */
export function createForkLauncher(options: ForkLauncherOptions = {}): PluginLauncher {
  const hostEntry = options.hostEntry ?? defaultPluginHostEntry();
  const heapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  const execArgv = [...(options.execArgv ?? DEFAULT_EXEC_ARGV), `--max-old-space-size=${heapMb}`];
  const source = options.env ?? process.env;
  const outputBudget = options.outputBytesPerSecond ?? 256 * 1024;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const compileCache = options.compileCacheDir === undefined ? join(tmpdir(), 'node-compile-cache') : options.compileCacheDir;
  return ({ pluginId, shared, frugal }) => {
    // Every process the plugin starts inherits this marker, so it can be found after its parent is gone.
    const marker = `AMBER_PLUGIN_RUN=${randomUUID()}`;
    const env = pluginEnvironment(source, {
      AMBER_PLUGIN_ID: pluginId,
      AMBER_PLUGIN_RUN: marker.slice('AMBER_PLUGIN_RUN='.length),
      ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}),
      // Started from Electron's main process, the child would start another app instead of running Node.
      ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
    });
    const role = shared ? `--amber-shared=${pluginId}` : `--amber-plugin=${pluginId}`;
    const child = spawn(process.execPath, [...execArgv, ...(frugal ? FRUGAL_V8_FLAGS : []), hostEntry, role, `--amber-pipe=${PLUGIN_PIPE_FD}`], {
      // Every option that matters is set here, so none can come from anywhere else.
      env,
      cwd: process.cwd(),
      shell: false,
      argv0: process.execPath,
      windowsHide: true,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    return wrapChild(child, { outputBudget, maxLineBytes, heapMb, marker });
  };
}

/** How many bytes main lets wait unread in a plugin's pipe before it calls the pipe congested. */
const CONGESTED_BYTES = 1024 * 1024;

/** Live plugin processes of this main process, ended on main's exit whatever the way out. */
const live = new Set<{ endNow(): void }>();
let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const p of live) p.endNow();
  });
}

function wrapChild(child: ChildProcess, o: { outputBudget: number; maxLineBytes: number; heapMb: number; marker: string }): PluginProcess {
  const pipe = child.stdio[PLUGIN_PIPE_FD] as Socket | null | undefined;
  const events = new ProcessEvents();
  let exit: PluginExit | null = null;
  let open = pipe !== null && pipe !== undefined;
  /** Set when main ends the process for a reason of its own (a broken pipe framing). */
  let stopReason: string | undefined;
  let outOfMemory = false;
  /** Descendants found when main let go of the pipe: the host then exits and they would lose their parent link. */
  let lastSeen: number[] = [];
  // One write per turn of the loop, however many messages main sends in it.
  const batcher = createLineBatcher((chunk) => {
    try {
      if (open && pipe && !exit) pipe.write(chunk);
    } catch {
      // A pipe that broke meanwhile reports it through 'close' and the exit.
    }
  }, setImmediate);
  const pid = child.pid;
  const group = pid !== undefined && process.platform !== 'win32';

  /** Signals the process, its group and every descendant found now, before any of them is reparented. */
  const signalTree = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    const descendants = process.platform === 'linux' ? findDescendants([pid], o.marker) : [];
    if (group) signalAll([-pid], signal);
    if (exit === null) signalAll([pid], signal);
    signalAll(descendants, signal);
  };
  const handle = { endNow: () => signalTree('SIGKILL') };

  const finish = (e: PluginExit) => {
    if (exit) return;
    open = false;
    const reason = stopReason ?? (outOfMemory || e.signal === 'SIGABRT' ? `ran out of memory (a plugin's heap is limited to ${o.heapMb} MB)` : undefined);
    exit = reason ? { ...e, reason } : e;
    // Whatever the plugin started goes with it: a crash leaves its children to be found by the marker.
    if (pid !== undefined) {
      if (group) signalAll([-pid], 'SIGKILL');
      if (process.platform === 'linux') signalAll([...lastSeen, ...findDescendants([pid], o.marker)], 'SIGKILL');
    }
    live.delete(handle);
    batcher.clear();
    pipe?.destroy();
    events.exit(exit);
  };
  // Without an 'error' listener, a spawn failure or a broken pipe would crash main.
  child.on('error', () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) finish({ code: child.exitCode ?? -1, signal: child.signalCode });
  });
  child.on('exit', (code, signal) => finish({ code, signal }));
  if (pid !== undefined) {
    live.add(handle);
    hookExit();
  }

  if (pipe) {
    pipe.on('error', () => {});
    pipe.on('close', () => {
      open = false;
    });
    const splitter = createLineSplitter(
      o.maxLineBytes,
      (line) => {
        events.message(lineFrame(line));
      },
      () => {
        stopReason = `was stopped: it sent a line longer than ${formatBytes(o.maxLineBytes)} on its pipe`;
        open = false;
        pipe.destroy();
        signalTree('SIGKILL');
      },
    );
    pipe.on('data', (chunk: Buffer) => splitter.push(chunk));
  }

  throttleOutput(
    [
      ['stdout', child.stdout],
      ['stderr', child.stderr],
    ],
    o.outputBudget,
    (name, text) => {
      if (name === 'stderr' && text.includes('heap out of memory')) outOfMemory = true;
      events.output(name, text);
    },
  );

  return {
    pid,
    get connected() {
      return open && exit === null;
    },
    send(message) {
      if (!open || !pipe || exit) return false;
      try {
        batcher.push(JSON.stringify(message));
        return true;
      } catch {
        return false;
      }
    },
    get congested() {
      return pipe ? pipe.writableLength + batcher.pendingChars > CONGESTED_BYTES : false;
    },
    get queuedBytes() {
      return pipe ? pipe.writableLength + batcher.pendingChars : 0;
    },
    onMessage: events.onMessage,
    onExit: events.onExit,
    onOutput: events.onOutput,
    disconnect() {
      if (!open) return;
      // What main already sent goes out before the end of the pipe.
      batcher.flush();
      open = false;
      if (pid !== undefined && process.platform === 'linux') lastSeen = findDescendants([pid]);
      pipe?.end();
    },
    kill(signal = 'SIGTERM') {
      if (exit === null) signalTree(signal);
    },
  };
}
