import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

export interface ProcessEnder {
  /**
   * Ends the command and everything it started. SIGTERM waits, when a sandbox is still being set up, until
   * its first process is known; SIGKILL never waits.
   */
  end(signal: 'SIGTERM' | 'SIGKILL'): void;
  /** The launched process exited: ends what it left in its group and forgets it. */
  exited(): void;
}

/**
 * Process groups and sandbox first processes of commands still running. When this process exits (main
 * closed the pipe, or the plugin is being let go of) they are killed with it: a detached group would
 * otherwise outlive its parent.
 */
const live = new Set<number>();
let exitHookInstalled = false;

function track(pid: number): void {
  live.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const target of live) signal(target, 'SIGKILL');
  });
}

/** `-group` for a process group. Never throws: the target may be gone already. */
function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // Already gone.
  }
}

/**
 * How a launched command is ended: its whole process group (a tree on Windows) and, under a sandbox that
 * reports its first process on `infoFd` (bubblewrap), that process, whose end ends every process inside
 * the sandbox's pid namespace, including ones that left the group with setsid.
 *
 * Until the sandbox has reported, a SIGTERM is held back: bubblewrap's first process sets "die with
 * parent" only once it runs, so a launcher killed before that leaves it orphaned and running.
 */
export function processEnder(child: ChildProcess, o: { platform: NodeJS.Platform; infoFd?: number }): ProcessEnder {
  const group = o.platform !== 'win32' ? child.pid : undefined;
  if (group !== undefined) track(-group);
  let sandboxPid: number | undefined;
  let exited = false;
  let waiting = o.infoFd !== undefined && group !== undefined;
  let held: 'SIGTERM' | null = null;

  const endGroup = (sig: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    if (o.platform === 'win32') {
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
      return;
    }
    signal(-child.pid, sig);
  };
  const endAll = (sig: NodeJS.Signals) => {
    // While the launcher lives it has not reaped its first process: the id cannot name another process.
    if (sandboxPid !== undefined && !exited) signal(sandboxPid, 'SIGKILL');
    endGroup(sig);
  };
  const settle = (pid: number | undefined) => {
    if (!waiting) return;
    waiting = false;
    if (pid !== undefined) {
      sandboxPid = pid;
      track(pid);
    }
    if (held) endAll(held);
  };

  const info = o.infoFd !== undefined ? (child.stdio[o.infoFd] as Readable | null | undefined) : undefined;
  if (info && waiting) {
    let text = '';
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      if (!waiting) return;
      text += chunk;
      const m = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (!m) return;
      const pid = Number(m[1]);
      // Only a child of the launcher is taken: whatever else wrote there names nothing to kill.
      settle(child.pid !== undefined && parentOf(pid) === child.pid ? pid : undefined);
    });
    info.on('error', () => settle(undefined));
    info.on('close', () => settle(undefined));
  } else waiting = false;

  return {
    end(sig) {
      if (sig === 'SIGTERM' && waiting) {
        held = sig;
        return;
      }
      endAll(sig);
    },
    exited() {
      endGroup('SIGKILL');
      exited = true;
      waiting = false;
      if (group !== undefined) live.delete(-group);
      if (sandboxPid !== undefined) live.delete(sandboxPid);
    },
  };
}

/** The parent process id of `pid` (Linux), or undefined when it cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count from the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}
