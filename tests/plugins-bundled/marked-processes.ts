// Finding a shell command's processes from outside. A sandboxed command lives in a pid namespace of its
// own, so the pid it prints (`$!`) means nothing here: tests give the process an argument no other process
// has (a marked `sleep`) and look for it in /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { isGone } from './bundled-runtime.ts';

/** A `sleep` argument no other process has: `300.<digits>`. */
export function markedSleep(): string {
  return `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Host pids of the living processes whose command line holds `marker`. */
export function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ').includes(marker) && !isGone(Number(name))) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Resolves the host pids of the marked process once `streamed()` holds "started" and the process runs. */
export async function startedPids(streamed: () => string, marker: string, timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = streamed().includes('started') ? pidsWith(marker) : [];
    if (pids.length > 0) return pids;
    if (Date.now() > deadline) throw new Error(`No process with ${marker} appeared.`);
    // The process was forked but may not have exec'd sleep yet: look again shortly.
    await new Promise<void>((r) => setTimeout(r, 5));
  }
}
