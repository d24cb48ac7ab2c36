import { type ChildProcess, spawn } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

// The MCP stdio transport, with the server in a process group of its own: ending the server ends
// everything it started (an `npx` wrapper and the server under it), not only the first process. The server
// inherits the plugin's environment (PATH among it, and the marker by which Amber finds the plugin's
// descendants if the plugin itself dies) plus the server's own variables.

export interface GroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** How much of the server's stderr is kept, for the state a failed server shows. */
  stderrTailBytes?: number;
  /** Between SIGTERM and SIGKILL when the transport closes. */
  killGraceMs?: number;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: GroupStdioOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | null = null;
  #stderr = '';
  #exited = false;

  constructor(options: GroupStdioOptions) {
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The last few KB the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderr;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.#options;
      const child = spawn(command, args, {
        cwd,
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.#child = child;
      child.on('error', (e) => {
        if (!this.#exited) reject(new Error(`The server could not be started (${command}): ${e.message}`));
        this.onerror?.(e);
      });
      child.on('spawn', () => resolve());
      child.on('exit', () => {
        this.#exited = true;
        // What it wrote to stderr last is read before the close is told (a process it left behind holding
        // the pipe open delays that by at most 200 ms).
        const stderr = child.stderr;
        if (!stderr || stderr.readableEnded) return void this.onclose?.();
        const done = () => {
          clearTimeout(timer);
          stderr.off('end', done);
          this.onclose?.();
        };
        const timer = setTimeout(done, 200);
        stderr.once('end', done);
      });
      child.stdin?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.#buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#buffer.readMessage();
          } catch (e) {
            // A malformed line is this server's error alone; the next line may be fine.
            this.onerror?.(e instanceof Error ? e : new Error(String(e)));
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      const max = this.#options.stderrTailBytes ?? 4096;
      child.stderr?.on('data', (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-max);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#child?.stdin;
      if (!stdin || this.#exited) return reject(new Error('The server is not running.'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server's whole process group: SIGTERM, then SIGKILL after the grace period. Resolves once it exited. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exited || child.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.stdin?.end();
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), this.#options.killGraceMs ?? 2000);
    await exited;
    clearTimeout(timer);
    // What it left running in its group goes too.
    signalGroup(child.pid, 'SIGKILL');
  }

  /** For the plugin's own exit: no waiting, every process of the group is killed at once. */
  killNow(): void {
    if (this.#child?.pid !== undefined) signalGroup(this.#child.pid, 'SIGKILL');
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}
