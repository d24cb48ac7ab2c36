// Whether the OS sandbox can start on this machine, and if not, why and what fixes it. Self-contained on
// purpose (no imports; the process and file system come in as parameters), so main can keep a copy of its own.

/** The part of a spawned child the probe uses. */
export interface ProbeChild {
  stderr: { setEncoding(encoding: 'utf8'): unknown; on(event: 'data', listener: (text: string) => void): unknown } | null;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: (code: number | null) => void): unknown;
  kill(signal?: NodeJS.Signals): unknown;
}

export interface SandboxProbeOptions {
  platform: NodeJS.Platform;
  /** node:child_process's spawn, or a stand-in. */
  spawn: (file: string, args: string[], options: { stdio: ['ignore', 'ignore', 'pipe']; env: Record<string, string> }) => ProbeChild;
  /** Whether a file exists (node:fs's existsSync). */
  exists: (path: string) => boolean;
  /** PATH to look for bwrap in (default: none, only /usr/bin/bwrap). */
  path?: string;
  /** How long the trial run may take (default 5000 ms). */
  timeoutMs?: number;
}

export type SandboxProbe =
  | { ok: true; kind: 'bubblewrap' | 'seatbelt'; command: string }
  | { ok: false; kind: 'bubblewrap' | 'seatbelt' | 'none'; reason: string; fix: string };

export const SEATBELT = '/usr/bin/sandbox-exec';

/**
 * The arguments of the trial run: the same namespaces and mounts every sandboxed command asks for, so that a
 * machine where one of them is refused (no user namespaces, a container that forbids mounting /proc) is
 * found here rather than at the first command.
 */
export const BWRAP_TRIAL = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
  '--unshare-all',
  '--die-with-parent',
  '--new-session',
  '--',
  'true',
];

/** Finds bubblewrap: on PATH, else /usr/bin/bwrap. */
export function findBwrap(options: Pick<SandboxProbeOptions, 'exists' | 'path'>): string | null {
  const dirs = (options.path ?? '').split(':').filter((d) => d.startsWith('/'));
  for (const dir of [...dirs, '/usr/bin']) {
    const file = `${dir.replace(/\/+$/, '')}/bwrap`;
    if (options.exists(file)) return file;
  }
  return null;
}

/**
 * Probes once: on Linux finds bwrap and runs a trivial sandbox with it, on macOS runs sandbox-exec with a
 * trivial profile, on Windows answers that there is none. Never throws; a failure comes with a sentence
 * saying how to fix it, read from bwrap's own complaint where it gave one.
 */
export async function probeSandbox(options: SandboxProbeOptions): Promise<SandboxProbe> {
  if (options.platform === 'darwin') {
    if (!options.exists(SEATBELT))
      return {
        ok: false,
        kind: 'seatbelt',
        reason: `${SEATBELT} is missing.`,
        fix: 'macOS ships sandbox-exec; restore it (it is part of the system) or run the command unsandboxed.',
      };
    const trial = await run(options, SEATBELT, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return trial.ok
      ? { ok: true, kind: 'seatbelt', command: SEATBELT }
      : {
          ok: false,
          kind: 'seatbelt',
          reason: `sandbox-exec failed: ${trial.error}`,
          fix: 'Check that sandbox-exec works in a terminal: sandbox-exec -p "(version 1)(allow default)" /usr/bin/true.',
        };
  }
  if (options.platform !== 'linux')
    return {
      ok: false,
      kind: 'none',
      reason: `There is no sandbox for shell commands on ${options.platform}.`,
      fix: 'Commands run unsandboxed here; keep an eye on what you approve.',
    };
  const bwrap = findBwrap(options);
  if (!bwrap) return { ok: false, kind: 'bubblewrap', reason: 'bubblewrap (bwrap) is not installed.', fix: BWRAP_INSTALL };
  const trial = await run(options, bwrap, BWRAP_TRIAL);
  if (trial.ok) return { ok: true, kind: 'bubblewrap', command: bwrap };
  return { ok: false, kind: 'bubblewrap', reason: `bubblewrap could not start a sandbox: ${trial.error}`, fix: bwrapFix(trial.error) };
}

const BWRAP_INSTALL = 'Install bubblewrap: sudo apt install bubblewrap (Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap).';

/** What to do about bwrap's complaint (its stderr), as a sentence. */
export function bwrapFix(stderr: string): string {
  const s = stderr.toLowerCase();
  if (s.includes('unprivileged_userns_clone') || s.includes('no permissions to create new namespace'))
    return 'User namespaces are off: sudo sysctl kernel.unprivileged_userns_clone=1 (and add it to /etc/sysctl.d to keep it).';
  if (s.includes('max_user_namespaces') || s.includes('enospc')) return 'User namespaces are limited to none: sudo sysctl user.max_user_namespaces=15000.';
  if (s.includes('setting up uid map') || s.includes('rtm_newaddr') || s.includes('apparmor'))
    return 'AppArmor forbids unprivileged user namespaces (Ubuntu 23.10 and later): allow them for bwrap with an AppArmor profile (see docs/sandbox.md), or sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0.';
  if (s.includes('kernel does not support user namespaces') || s.includes('must be installed setuid'))
    return 'This kernel has no user namespaces: install bubblewrap setuid root (sudo chmod u+s $(command -v bwrap)) or use a kernel with CONFIG_USER_NS.';
  if (s.includes('mount proc') || s.includes('operation not permitted'))
    return 'This machine (often a container) forbids the mounts the sandbox needs: run Amber outside the container, or start the container with --security-opt seccomp=unconfined --security-opt apparmor=unconfined (or privileged).';
  if (s.includes('enoent') || s.includes('not found')) return BWRAP_INSTALL;
  return 'Run bwrap --ro-bind / / --unshare-all true in a terminal to see why it fails, or run the command unsandboxed.';
}

function run(options: SandboxProbeOptions, file: string, args: string[]): Promise<{ ok: true } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const done = (result: { ok: true } | { ok: false; error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let child: ProbeChild;
    try {
      child = options.spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    } catch (e) {
      return done({ ok: false, error: e instanceof Error ? e.message : String(e) });
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ ok: false, error: `it did not finish within ${options.timeoutMs ?? 5000} ms.` });
    }, options.timeoutMs ?? 5000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (t) => (stderr += t));
    child.on('error', (e) => done({ ok: false, error: e.message }));
    child.on('close', (code) =>
      done(code === 0 ? { ok: true } : { ok: false, error: stderr.trim().split('\n').slice(-3).join(' ') || `it exited with code ${code}.` }),
    );
  });
}
