import { readdirSync, readFileSync } from 'node:fs';

// Finding every process a plugin started, so that none outlives it. On Linux, /proc gives each process's
// parent: the descendants of a pid are found by following those links down. A process the plugin started
// detached, or in a group of its own, is still a descendant until its parent exits; after that it is found by
// the marker every process the plugin starts inherits in its environment (unless it threw that away).

/** What the walk reads; tests pass their own. */
export interface ProcTable {
  /** Every pid there is. */
  pids(): number[];
  /** The contents of /proc/<pid>/stat, or null when the process is gone. */
  stat(pid: number): string | null;
  /** The contents of /proc/<pid>/environ, or null when it cannot be read (gone, or another user's). */
  environ(pid: number): string | null;
}

const readOrNull = (path: string): string | null => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
};

export const linuxProcTable: ProcTable = {
  pids() {
    try {
      return readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .map(Number);
    } catch {
      return [];
    }
  },
  stat: (pid) => readOrNull(`/proc/${pid}/stat`),
  environ: (pid) => readOrNull(`/proc/${pid}/environ`),
};

/** The parent pid and state in a /proc/<pid>/stat line (the name in parentheses may hold anything). */
export function parseStat(stat: string): { ppid: number; state: string } | null {
  const close = stat.lastIndexOf(')');
  if (close === -1) return null;
  const fields = stat.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  return fields[0] && Number.isInteger(ppid) ? { ppid, state: fields[0] } : null;
}

/**
 * Every living descendant of `roots` (not the roots themselves), found by following parent links down, and
 * with `marker` (a `NAME=value` string) also every process whose environment holds it, with its own
 * descendants. Zombies are left out: they are already dead. Empty where there is no /proc.
 */
export function findDescendants(roots: readonly number[], marker: string | null = null, table: ProcTable = linuxProcTable): number[] {
  const children = new Map<number, number[]>();
  const living: number[] = [];
  for (const pid of table.pids()) {
    const stat = table.stat(pid);
    const parsed = stat === null ? null : parseStat(stat);
    if (!parsed || parsed.state === 'Z') continue;
    living.push(pid);
    const list = children.get(parsed.ppid);
    if (list) list.push(pid);
    else children.set(parsed.ppid, [pid]);
  }
  const found = new Set<number>();
  const rootSet = new Set(roots);
  const queue = [...roots];
  if (marker !== null) {
    for (const pid of living) {
      if (pid === process.pid || rootSet.has(pid)) continue;
      const environ = table.environ(pid);
      if (environ === null || !environ.split('\0').includes(marker)) continue;
      queue.push(pid);
      found.add(pid);
    }
  }
  // Each pid is entered once, so a table whose parent links form a loop still ends.
  const seen = new Set<number>(queue);
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child) || child === process.pid) continue;
      seen.add(child);
      found.add(child);
      queue.push(child);
    }
  }
  for (const root of roots) found.delete(root);
  return [...found];
}

/** Sends `signal` to each pid, ignoring those already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone, or not ours.
    }
  }
}
