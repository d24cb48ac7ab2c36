import { type StdioOptions, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolOutput } from '../../shared/tools/index.ts';
import {
  createProtectedEntriesCache,
  type Launch,
  type ProtectedEntries,
  probeSandbox,
  type SandboxLabel,
  type SandboxProbe,
  sandboxLaunch,
} from './sandbox/index.ts';
import { processEnder } from './process-ender.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from './truncate-output.ts';
import { defineWorkspaceTool, errorOutput, type WorkspaceTool, type WorkspaceToolContext } from './workspace-tool.ts';

export const DEFAULT_TIMEOUT_S = 120;
export const MAX_TIMEOUT_S = 600;

export const BashArgs = z.object({
  command: z.string().min(1).describe('The command line to run, in the workspace folder'),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before the command is stopped (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S})`),
});

export interface BashToolOptions {
  platform?: NodeJS.Platform;
  /** Between SIGTERM and SIGKILL when a command is stopped. */
  graceMs?: number;
  /** Kept from the end of the output. */
  maxLines?: number;
  maxBytes?: number;
  /** Whether bash can be found (on Windows it often cannot; PowerShell is used then). */
  hasBash?: () => boolean;
  /** Whether the sandbox can start here (default: probed once per process; see probeSandbox). */
  probe?: () => Promise<SandboxProbe>;
  /** The home folder whose secrets the sandbox hides, and the commands' HOME (default: the user's). */
  home?: string;
  /** The environment a command's allow-listed one is taken from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The protected paths that exist in a workspace (default: a bounded walk, cached per root). */
  protectedEntries?: (root: string) => ProtectedEntries;
}

let sharedProbe: Promise<SandboxProbe> | null = null;

/** The sandbox probe of this process, run at the first command and kept: the machine does not change under it. */
function defaultProbe(): Promise<SandboxProbe> {
  sharedProbe ??= probeSandbox({
    platform: process.platform,
    spawn: (file, args, options) => spawn(file, args, options),
    exists: existsSync,
    path: process.env.PATH ?? '',
  });
  return sharedProbe;
}

/** What each sandbox allows, for the model: said after a command that failed inside one. */
const SANDBOX_HINT: Record<SandboxLabel, string | null> = {
  read: '[It ran in the read-only sandbox: nothing can be written but /tmp, and there is no network.]',
  write: '[It ran in the write sandbox: only the workspace is writable, not its protected paths (.git, package.json, …), and the network only where allowed.]',
  yolo: '[It ran in the sandbox: only the workspace is writable, not its protected paths (.git, package.json, …).]',
  unsandboxed: null,
  none: null,
};

interface Shell {
  file: string;
  args: string[];
  name: string;
}

/** bash where there is one; PowerShell on Windows without it. */
export function shellFor(command: string, platform: NodeJS.Platform, hasBash: () => boolean): Shell {
  if (platform !== 'win32') {
    const file = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
    return { file, args: ['-c', command], name: file.endsWith('bash') ? 'bash' : 'sh' };
  }
  if (hasBash()) return { file: 'bash.exe', args: ['-c', command], name: 'bash' };
  return { file: 'powershell.exe', args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', command], name: 'PowerShell' };
}

/**
 * The end of a long output within both limits, cut at a line boundary, with a note saying how much came
 * before it (the end of a build or test log is where the answer is).
 */
export function tailOutput(text: string, totalLines: number, droppedBytes: number, maxLines: number, maxBytes: number): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const size = Buffer.byteLength(lines[i]!, 'utf8') + 1;
    if (kept.length >= maxLines || bytes + size > maxBytes) break;
    kept.push(lines[i]!);
    bytes += size;
  }
  if (kept.length === lines.length && droppedBytes === 0) return text;
  kept.reverse();
  return `[Output truncated: showing the last ${kept.length} of ${totalLines} lines (limits: ${maxLines} lines, ${Math.round(maxBytes / 1024)} KB).]\n${kept.join('\n')}`;
}

/** Whether a bash.exe is on PATH (Git Bash and the like; WSL's launcher in System32 does not count). */
function bashOnPath(): boolean {
  const dirs = (process.env.PATH ?? '').split(';').filter((d) => d !== '' && !/system32/i.test(d));
  return dirs.some((d) => existsSync(join(d, 'bash.exe')));
}

/**
 * `bash`: runs one command line in the conversation's workspace folder inside the OS sandbox of the call's
 * mode (see sandboxLaunch: never unconfined unless main says the user chose it, or on Windows, which has
 * none), in a process group of its own, stdin from /dev/null, an allow-listed environment. Output (stdout
 * and stderr in arrival order) streams to the tool card; the result holds its tail, the exit code and
 * `details.sandbox`/`details.network`. Stop and the timeout end the whole group (SIGTERM, then SIGKILL after
 * a grace period), and so does the command's own end: nothing it started in the background outlives the call.
 * Where the sandbox cannot start, nothing runs and the result says why and how to fix it.
 */
export function createBashTool(options: BashToolOptions = {}): WorkspaceTool {
  const platform = options.platform ?? process.platform;
  const graceMs = options.graceMs ?? 2000;
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const hasBash = options.hasBash ?? bashOnPath;
  const probe = options.probe ?? defaultProbe;
  const home = options.home ?? homedir();
  const env = options.env ?? process.env;
  const protectedEntries = options.protectedEntries ?? createProtectedEntriesCache();
  const sandboxed =
    platform === 'win32'
      ? 'Commands are not sandboxed on Windows: they can do whatever you can. '
      : 'Every command runs in an OS sandbox set by the conversation’s mode: in read mode the file system is read-only (but a private /tmp) and there is no network; ' +
        'in write and yolo modes the workspace is writable except its protected paths (.git, package.json, editor and CI settings, …), the network only where the mode allows it. ' +
        'Your secrets (~/.ssh, cloud and package tokens, browser profiles, shell history) and Amber’s data folder are hidden, the environment holds no keys, ' +
        'and nothing the command starts outlives it. ';
  const tool = defineWorkspaceTool({
    name: 'bash',
    description:
      `Run a shell command line in the workspace folder (${platform === 'win32' && !hasBash() ? 'PowerShell' : 'bash'}) and get its output and exit code. ` +
      `Output past ${maxLines} lines or ${Math.round(maxBytes / 1024)} KB keeps its end. Stops after \`timeout\` seconds (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}). ` +
      'stdin is empty: interactive commands will not wait for input. ' +
      sandboxed +
      'Each command line is checked before it runs: destructive ones, ones that cannot be judged ' +
      '(eval, $VAR as a command, inline scripts) and ones naming paths outside the workspace wait for the user’s approval, so keep commands plain. ' +
      'Prefer read, ls, grep and find for looking at files.',
    readOnly: false,
    // Paths live inside the command line: the shell policy judges them there, not by parameter.
    pathParams: [],
    schema: BashArgs,
    run: async (args, ctx) => {
      const denied = ctx.denied?.find((d) => args.command.includes(d));
      // A courtesy, not the guard: the sandbox hides the data folder whatever the line says.
      if (denied) return errorOutput(`The command names ${denied}, Amber's own data folder, which no tool may touch.`);
      const shell = shellFor(args.command, platform, hasBash);
      const plan = await sandboxLaunch({
        platform,
        shell,
        ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
        root: ctx.root,
        home,
        ...(ctx.denied ? { denied: ctx.denied } : {}),
        env,
        probe,
        protectedEntries,
      });
      if (!plan.ok) return sandboxUnavailable(plan.reason, plan.fix);
      try {
        return await runLaunch(plan.launch, shell.name, args.timeout ?? DEFAULT_TIMEOUT_S, ctx);
      } finally {
        plan.launch.cleanup();
      }
    },
  });

  /**
   * Runs a launch in a process group of its own and resolves with its result (see createBashTool). Under
   * bubblewrap, ending bwrap ends the sandbox's first process and with it every process inside.
   */
  function runLaunch(launch: Launch, shellName: string, timeoutS: number, ctx: WorkspaceToolContext): Promise<ToolOutput> {
    return new Promise((resolve) => {
      const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
      // Descriptors between stderr and the launcher's info one stay closed.
      if (launch.infoFd !== undefined) stdio.push(...Array<'ignore'>(launch.infoFd - 3).fill('ignore'), 'pipe');
      const child = spawn(launch.file, launch.args, {
        cwd: ctx.root,
        detached: platform !== 'win32',
        stdio,
        env: launch.env,
        windowsHide: true,
      });
      const ender = processEnder(child, { platform, ...(launch.infoFd !== undefined ? { infoFd: launch.infoFd } : {}) });
      let output = '';
      let droppedBytes = 0;
      let newlines = 0;
      let stopped: 'stop' | 'timeout' | null = null;
      let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
      let killTimer: ReturnType<typeof setTimeout> | undefined;
      const onData = (text: string) => {
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
        output += text;
        // Keep memory bounded: only the tail is ever shown.
        if (output.length > 4 * maxBytes) {
          const cut = output.length - 2 * maxBytes;
          droppedBytes += cut;
          output = output.slice(cut);
        }
        ctx.update?.(text);
      };
      child.stdout!.setEncoding('utf8').on('data', onData);
      child.stderr!.setEncoding('utf8').on('data', onData);
      const stop = (why: 'stop' | 'timeout') => {
        if (stopped || exit) return;
        stopped = why;
        ender.end('SIGTERM');
        killTimer = setTimeout(() => ender.end('SIGKILL'), graceMs);
      };
      const onAbort = () => stop('stop');
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => stop('timeout'), timeoutS * 1000);
      let done = false;
      const finish = (spawnError?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearTimeout(killTimer);
        ctx.signal?.removeEventListener('abort', onAbort);
        if (spawnError)
          return resolve({
            ...errorOutput(`${shellName} could not be started: ${spawnError.message}`),
            details: { sandbox: launch.sandbox, network: launch.network },
          });
        const code = exit?.code ?? null;
        const signal = exit?.signal ?? null;
        const totalLines = newlines + (output === '' || output.endsWith('\n') ? 0 : 1);
        const shown = tailOutput(output.replace(/\n$/, ''), totalLines, droppedBytes, maxLines, maxBytes);
        let status: string;
        if (stopped === 'timeout') status = `[Stopped after ${timeoutS} s (the timeout); the command and everything it started were ended.]`;
        else if (stopped === 'stop') status = '[Stopped by the user; the command and everything it started were ended.]';
        else if (signal) status = `[Killed by ${signal}.]`;
        else status = `[Exit code ${code}${launch.signalsAsExitCodes ? signalOfExitCode(code) : ''}]`;
        const failed = stopped !== null || signal !== null || code !== 0;
        const hint = failed && stopped === null ? SANDBOX_HINT[launch.sandbox] : null;
        const text = `${shown === '' ? '(no output)' : shown}\n\n${status}${hint ? `\n${hint}` : ''}`;
        resolve({
          content: [{ type: 'text', text }],
          isError: failed,
          details: {
            exitCode: code,
            signal,
            timedOut: stopped === 'timeout',
            stopped: stopped === 'stop',
            truncated: shown !== output.replace(/\n$/, ''),
            sandbox: launch.sandbox,
            network: launch.network,
          },
        });
      };
      child.on('error', (e) => finish(e));
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        // Whatever the command left running in the background ends with it.
        ender.exited();
        // A process that left the group may still hold the pipes: stop reading after the grace period.
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, graceMs).unref();
      });
      child.on('close', () => finish());
      if (ctx.signal?.aborted) stop('stop');
    });
  }
  // Commands of one turn may build on each other (cd, files one writes and the next reads): they run in order.
  return { ...tool, spec: { ...tool.spec, shell: true, parallel: false } };
}

/** ", as for SIGKILL" for 137 and the like: how a shell reports a command a signal ended; '' for other codes. */
export function signalOfExitCode(code: number | null): string {
  if (code === null || code <= 128) return '';
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? `, as for ${name}` : '';
}

/** The result of a call whose sandbox could not start: nothing ran, and the user reads why and what to do. */
function sandboxUnavailable(reason: string, fix: string): ToolOutput {
  return {
    content: [
      {
        type: 'text',
        text: `The command did not run: the sandbox could not start. ${reason} ${fix} Until then, a command can only run unsandboxed, which the user must choose for it.`,
      },
    ],
    isError: true,
    details: { sandbox: 'unavailable', network: false },
  };
}

export const bashTool = createBashTool();
