import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ShellSandbox } from '../../../shared/tools/index.ts';
import { bwrapArgs } from './bwrap-args.ts';
import { hiddenPaths } from './hidden-paths.ts';
import type { ProtectedEntries } from './protected-entries.ts';
import { sandboxEnv } from './sandbox-env.ts';
import type { SandboxProbe } from './sandbox-probe.ts';
import { sandboxProfile } from './sandbox-profile.ts';
import { seatbeltProfile } from './seatbelt-profile.ts';

/** How a command ran, as its result's `details.sandbox` says: a mode's sandbox, or none (and why none). */
export type SandboxLabel = ShellSandbox['mode'] | 'unsandboxed' | 'none';

/** A command ready to spawn: the program, its arguments and environment, and what confines it. */
export interface Launch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  sandbox: SandboxLabel;
  /** Whether the command can reach the network. */
  network: boolean;
  /** A command killed by a signal is reported as exit code 128 + its number (bubblewrap passes it on so). */
  signalsAsExitCodes: boolean;
  /**
   * The descriptor on which the launcher writes the id of the sandbox's first process (bubblewrap's
   * `--info-fd`: JSON with `child-pid`). Ending that process ends everything inside the sandbox, even what
   * left the launcher's process group; and waiting for it before any signal means a stop that comes while
   * the sandbox is being set up cannot leave its first process orphaned and running.
   */
  infoFd?: number;
  /** Removes what the launch made for the call (macOS: its temporary folder). Never throws. */
  cleanup(): void;
}

export type LaunchPlan = { ok: true; launch: Launch } | { ok: false; reason: string; fix: string };

export interface SandboxLaunchInput {
  platform: NodeJS.Platform;
  /** The shell and its arguments, as they would run unconfined. */
  shell: { file: string; args: string[] };
  /** What main's policy chose for this call; absent means read, no network. */
  sandbox?: ShellSandbox;
  root: string;
  home: string;
  denied?: readonly string[];
  /** The environment the allow-list is taken from. */
  env: NodeJS.ProcessEnv;
  probe: () => Promise<SandboxProbe>;
  protectedEntries: (root: string) => ProtectedEntries;
}

const nothing = () => {};

/** The first descriptor after stdin, stdout and stderr. */
const BWRAP_INFO_FD = 3;

/**
 * How to run one shell call: inside bubblewrap (Linux) or Seatbelt (macOS) built from the call's profile;
 * unconfined only on Windows (no sandbox: `none`) or when main says the user chose it for this call
 * (`unsandboxed`). Where the sandbox cannot start and nobody chose to go without, the plan is not to run,
 * with the reason and the fix: a command never runs unconfined by default. The environment is the
 * allow-listed one in every case.
 */
export async function sandboxLaunch(input: SandboxLaunchInput): Promise<LaunchPlan> {
  const { platform, shell } = input;
  const unconfined = (sandbox: SandboxLabel): LaunchPlan => ({
    ok: true,
    launch: {
      ...shell,
      env: sandboxEnv(input.env, { home: input.home, tmp: tmpdir(), platform }),
      sandbox,
      network: true,
      signalsAsExitCodes: false,
      cleanup: nothing,
    },
  });
  if (platform === 'win32') return unconfined('none');
  if (input.sandbox?.unsandboxed === true) return unconfined('unsandboxed');
  const probe = await input.probe();
  if (!probe.ok) return { ok: false, reason: probe.reason, fix: probe.fix };
  const profile = sandboxProfile(input.sandbox, input);
  const network = profile.mode !== 'read' && profile.network;
  if (probe.kind === 'bubblewrap') {
    const found = {
      hidden: hiddenPaths(profile.home, profile.denied),
      protectedPaths: profile.mode === 'read' ? [] : input.protectedEntries(profile.root).paths,
    };
    const args = [...bwrapArgs(profile, found), '--info-fd', String(BWRAP_INFO_FD), '--', shell.file, ...shell.args];
    return {
      ok: true,
      launch: {
        file: probe.command,
        args,
        env: sandboxEnv(input.env, { home: profile.home, tmp: '/tmp', platform }),
        sandbox: profile.mode,
        network,
        signalsAsExitCodes: true,
        infoFd: BWRAP_INFO_FD,
        cleanup: nothing,
      },
    };
  }
  // Seatbelt has no private /tmp: the call gets a folder of its own, removed when it ends.
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'amber-sh-')));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  try {
    const sbpl = seatbeltProfile(profile, { tmp, realpath: realOrSame });
    return {
      ok: true,
      launch: {
        file: probe.command,
        args: ['-p', sbpl, shell.file, ...shell.args],
        env: sandboxEnv(input.env, { home: profile.home, tmp, platform }),
        sandbox: profile.mode,
        network,
        signalsAsExitCodes: false,
        cleanup,
      },
    };
  } catch (e) {
    cleanup();
    return {
      ok: false,
      reason: e instanceof Error ? e.message : String(e),
      fix: 'Move the workspace to a folder whose path has no quotes or backslashes, or run the command unsandboxed.',
    };
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
