import { spawn as nodeSpawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether shell commands can run inside an OS sandbox here: bubblewrap on Linux, Seatbelt (`sandbox-exec`)
 * on macOS, none on Windows. Where none can start, `reason` says why and `fix` what the user can do, as
 * sentences.
 */
export type SandboxStatus = { available: true; kind: 'bubblewrap' | 'seatbelt' } | { available: false; reason: string; fix: string };

/** The part of `child_process.spawn` the probe uses. */
export type SpawnProgram = (
  file: string,
  args: readonly string[],
  options: { stdio: ['ignore', 'ignore', 'pipe'] },
) => import('node:child_process').ChildProcess;

export interface SandboxProbeOptions {
  platform?: NodeJS.Platform;
  spawn?: SpawnProgram;
  /** Where a program of that name is, or null. Default: the folders on PATH, then /usr/bin, /bin, /usr/local/bin. */
  find?: (name: string) => string | null;
  /** How long the trial sandbox may take to start and end. */
  timeoutMs?: number;
}

/** What the user can do where no sandbox starts, per platform. */
export function sandboxFix(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return 'Install bubblewrap (for example: sudo apt install bubblewrap, or sudo dnf install bubblewrap) and make sure it may create user namespaces (try: bwrap --ro-bind / / /bin/true), then restart Amber.';
  }
  if (platform === 'darwin') return 'Make sure /usr/bin/sandbox-exec runs (it ships with macOS), then restart Amber.';
  if (platform === 'win32')
    return 'Run Amber inside WSL (Linux), where bubblewrap can sandbox commands; until then every command that is not read-only asks first.';
  return 'Run Amber on Linux (with bubblewrap) or macOS to sandbox commands; until then every command that is not read-only asks first.';
}

/**
 * Tries once to start a trivial sandbox: on Linux `bwrap --ro-bind / / --unshare-all --die-with-parent
 * /bin/true`, on macOS `sandbox-exec` with an allow-all profile. Never throws: any failure is an
 * unavailable status with its reason.
 */
export async function probeSandbox(options: SandboxProbeOptions = {}): Promise<SandboxStatus> {
  const platform = options.platform ?? process.platform;
  const find = options.find ?? findOnPath;
  const spawn = options.spawn ?? nodeSpawn;
  const timeoutMs = options.timeoutMs ?? 5000;
  const unavailable = (reason: string): SandboxStatus => ({ available: false, reason, fix: sandboxFix(platform) });
  try {
    if (platform === 'linux') {
      const bwrap = find('bwrap');
      if (bwrap === null) return unavailable('bubblewrap (bwrap) is not installed, so shell commands cannot run in a sandbox.');
      const why = await runs(spawn, bwrap, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true'], timeoutMs);
      return why === null ? { available: true, kind: 'bubblewrap' } : unavailable(`bubblewrap is installed but could not start a sandbox: ${why}`);
    }
    if (platform === 'darwin') {
      const exec = find('sandbox-exec');
      if (exec === null) return unavailable('sandbox-exec was not found, so shell commands cannot run in a sandbox.');
      const why = await runs(spawn, exec, ['-p', '(version 1)(allow default)', '/usr/bin/true'], timeoutMs);
      return why === null ? { available: true, kind: 'seatbelt' } : unavailable(`sandbox-exec could not start a sandbox: ${why}`);
    }
    if (platform === 'win32') return unavailable('Windows has no sandbox Amber can run shell commands in.');
    return unavailable(`Amber has no sandbox for shell commands on ${platform}.`);
  } catch (e) {
    return unavailable(`checking for it failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Null when the program ran and exited 0; else why not, as a sentence. Never rejects. */
function runs(spawn: SpawnProgram, file: string, args: readonly string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const done = (why: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(why);
    };
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(`it did not finish within ${timeoutMs} ms.`);
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (e) => done(`${e.message}.`));
    child.on('close', (code, signal) => {
      if (code === 0) return done(null);
      const said = stderr.trim().split('\n')[0]?.trim();
      done(said ? `${said.replace(/[.\s]+$/, '')}.` : `it exited with ${code === null ? `signal ${signal}` : `code ${code}`}.`);
    });
  });
}

function findOnPath(name: string): string | null {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== ''), '/usr/bin', '/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return null;
}
