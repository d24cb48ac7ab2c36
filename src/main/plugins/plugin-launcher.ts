// How main starts a plugin process. Two launchers share this shape: `fork-launcher.ts` (child_process.fork,
// for the headless shell and tests) and `../electron/utility-launcher.ts` (Electron's utilityProcess).

export interface PluginExit {
  code: number | null;
  signal: string | null;
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
  onMessage(listener: (message: unknown) => void): void;
  /** Called once, when the process has exited (or could not start). */
  onExit(listener: (exit: PluginExit) => void): void;
  /** Output the process writes outside the pipe, for the plugin's log; the launcher throttles it. */
  onOutput(listener: (stream: 'stdout' | 'stderr', text: string) => void): void;
  /** Closes the pipe: the plugin host exits by itself when it notices. */
  disconnect(): void;
  kill(signal?: 'SIGTERM' | 'SIGKILL'): void;
}

export interface LaunchRequest {
  pluginId: string;
}

export type PluginLauncher = (request: LaunchRequest) => PluginProcess;
