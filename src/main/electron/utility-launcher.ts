// Plugin processes in the desktop app: Electron's utilityProcess, running the same plugin host as the
// forked child of the headless shell. Electron is only a type here; the shell passes `utilityProcess` in.
import { join } from 'node:path';
import type { utilityProcess as ElectronUtilityProcess, UtilityProcess } from 'electron';
import { type PluginExit, type PluginLauncher, type PluginProcess, throttleOutput } from '../plugins/index.ts';
import { CHANNEL_CLOSE } from '../../shared/plugins/protocol.ts';

export interface UtilityLauncherOptions {
  /** The built plugin host, beside main's bundle (out/main/plugin-host.js). */
  hostEntry?: string;
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  /** Bytes per second of stdout+stderr read from a plugin before reading pauses (the plugin then waits). */
  outputBytesPerSecond?: number;
}

export function createUtilityLauncher(utilityProcess: Pick<typeof ElectronUtilityProcess, 'fork'>, options: UtilityLauncherOptions = {}): PluginLauncher {
  const hostEntry = options.hostEntry ?? join(import.meta.dirname, 'plugin-host.js');
  return ({ pluginId }) => {
    const child = utilityProcess.fork(hostEntry, [`--amber-plugin=${pluginId}`], {
      serviceName: `Amber plugin ${pluginId}`,
      stdio: 'pipe',
      execArgv: options.execArgv ?? [],
      env: { ...(options.env ?? process.env), AMBER_PLUGIN_ID: pluginId },
    });
    return wrapUtility(child, options.outputBytesPerSecond ?? 256 * 1024);
  };
}

function wrapUtility(child: UtilityProcess, outputBytesPerSecond: number): PluginProcess {
  // A UtilityProcess's postMessage has no target origin (it is not window.postMessage).
  const post = (message: unknown) => child.postMessage(message); // oxlint-disable-line unicorn/require-post-message-target-origin
  let exit: PluginExit | null = null;
  let open = true;
  const exitListeners: ((e: PluginExit) => void)[] = [];
  const outputListeners: ((s: 'stdout' | 'stderr', t: string) => void)[] = [];
  const finish = (e: PluginExit) => {
    open = false;
    if (exit) return;
    exit = e;
    for (const l of exitListeners.splice(0)) l(e);
  };
  child.on('exit', (code) => finish({ code, signal: null }));
  child.on('error', () => finish({ code: -1, signal: null }));
  throttleOutput([['stdout', child.stdout], ['stderr', child.stderr]], outputBytesPerSecond, (name, text) => {
    for (const l of outputListeners) l(name, text);
  });
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
    onMessage: (l) => void child.on('message', l),
    onExit(l) {
      if (exit) l(exit);
      else exitListeners.push(l);
    },
    onOutput: (l) => void outputListeners.push(l),
    disconnect() {
      if (open && !exit) post({ ch: CHANNEL_CLOSE });
      open = false;
    },
    kill(signal = 'SIGTERM') {
      if (exit) return;
      if (signal === 'SIGKILL' && child.pid) process.kill(child.pid, 'SIGKILL');
      else child.kill();
    },
  };
}
