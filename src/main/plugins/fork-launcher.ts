import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { throttleOutput } from './output-throttle.ts';
import type { PluginExit, PluginLauncher, PluginProcess } from './plugin-launcher.ts';

export interface ForkLauncherOptions {
  /** The plugin host module; by default the built one beside main's bundle, else the TypeScript source. */
  hostEntry?: string;
  /**
   * Node flags for the child, chosen here and never inherited: a child of a test runner or of a debugger
   * would otherwise take its parent's loaders and inspector ports.
   */
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  /** Bytes per second of stdout+stderr read from a plugin before reading pauses (the plugin then waits). */
  outputBytesPerSecond?: number;
  /**
   * Node's compile cache for plugin processes (NODE_COMPILE_CACHE), by default Node's own default folder.
   * It keeps type-stripped TypeScript and V8 code, so a plugin host started from sources neither loads the
   * TypeScript stripper again (about 25 MB of resident memory) nor recompiles. `false` turns it off.
   */
  compileCacheDir?: string | false;
}

export const DEFAULT_EXEC_ARGV = ['--disable-warning=ExperimentalWarning'];

export function defaultHostEntry(dir: string = import.meta.dirname): string {
  const built = join(dir, 'plugin-host.js');
  if (existsSync(built)) return built;
  return resolve(dir, '../../workers/plugin-host/plugin-host-main.ts');
}

/** Starts each plugin as a forked Node child: stdio piped (throttled), one IPC pipe, JSON serialization. */
export function createForkLauncher(options: ForkLauncherOptions = {}): PluginLauncher {
  const hostEntry = options.hostEntry ?? defaultHostEntry();
  const execArgv = options.execArgv ?? DEFAULT_EXEC_ARGV;
  const { NODE_OPTIONS: _ignored, ...inherited } = options.env ?? process.env;
  const outputBudget = options.outputBytesPerSecond ?? 256 * 1024;
  const compileCache = options.compileCacheDir === undefined ? join(tmpdir(), 'node-compile-cache') : options.compileCacheDir;
  return ({ pluginId }) => {
    const child = fork(hostEntry, [`--amber-plugin=${pluginId}`], {
      execArgv,
      env: {
        ...inherited,
        AMBER_PLUGIN_ID: pluginId,
        ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}),
        // Forked from Electron's main process, the child would start another app instead of running Node.
        ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    return wrapChild(child, outputBudget);
  };
}

/** How long a congested pipe is left alone before main tries to send on it again. */
const CONGESTION_RECHECK_MS = 100;

function wrapChild(child: ChildProcess, outputBudget: number): PluginProcess {
  let congestedUntil = 0;
  const exitListeners: ((e: PluginExit) => void)[] = [];
  const outputListeners: ((s: 'stdout' | 'stderr', t: string) => void)[] = [];
  let exit: PluginExit | null = null;
  const finish = (e: PluginExit) => {
    if (exit) return;
    exit = e;
    for (const l of exitListeners.splice(0)) l(e);
  };
  // Without an 'error' listener, ERR_IPC_CHANNEL_CLOSED and spawn failures would crash main.
  child.on('error', () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) finish({ code: child.exitCode ?? -1, signal: child.signalCode });
  });
  child.on('exit', (code, signal) => finish({ code, signal }));

  throttleOutput([['stdout', child.stdout], ['stderr', child.stderr]], outputBudget, (name, text) => {
    for (const l of outputListeners) l(name, text);
  });

  return {
    get pid() {
      return child.pid;
    },
    get connected() {
      return child.connected;
    },
    send(message) {
      if (!child.connected) return false;
      try {
        // false: the backlog of unsent messages is over Node's threshold (the child is not reading).
        if (!child.send(message as object)) congestedUntil = Date.now() + CONGESTION_RECHECK_MS;
        return true;
      } catch {
        return false;
      }
    },
    get congested() {
      return Date.now() < congestedUntil;
    },
    onMessage: (l) => void child.on('message', l),
    onExit(l) {
      if (exit) l(exit);
      else exitListeners.push(l);
    },
    onOutput: (l) => void outputListeners.push(l),
    disconnect() {
      if (child.connected) child.disconnect();
    },
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
