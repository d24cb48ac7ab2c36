import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { findDescendants, parseStat, type ProcTable, signalAll } from './process-tree.ts';

// Real process trees (Linux /proc), and a made-up table for what a real one should never contain.

const started: number[] = [];
afterEach(() => {
  signalAll(started.splice(0), 'SIGKILL');
});

/** Running, not a zombie (a killed process whose parent has not reaped it yet is dead for us). */
function running(pid: number): boolean {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'))?.state !== 'Z';
  } catch {
    return false;
  }
}

/** Starts `sh -c script` and resolves once it prints its first line (the script says when it is ready). */
async function sh(script: string, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'], env });
  started.push(child.pid!);
  const line = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { child, line };
}

test.runIf(process.platform === 'linux')('finds a child and a grandchild started in a session of its own by following parent links', async () => {
  const { child } = await sh('sleep 30 & setsid sleep 30 & echo ready; wait');
  const found = findDescendants([child.pid!]);
  started.push(...found);
  expect(found).toHaveLength(2);
  expect(found.every(running)).toBe(true);
  signalAll(found, 'SIGKILL');
  const deadline = performance.now() + 2000;
  // There is no event for another process's end: poll briefly.
  while (found.some(running) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(found.filter(running)).toEqual([]);
});

test.runIf(process.platform === 'linux')('finds an orphan whose parent already exited by the marker in its environment, and only with it', async () => {
  const marker = `AMBER_PLUGIN_RUN=test-${process.pid}-${Date.now()}`;
  const { child, line } = await sh('(sleep 30 & echo $!) ; wait', { ...process.env, AMBER_PLUGIN_RUN: marker.split('=')[1] });
  const orphan = Number(line);
  started.push(orphan);
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  expect(running(orphan)).toBe(true);
  expect(findDescendants([child.pid!])).toEqual([]);
  expect(findDescendants([child.pid!], marker)).toEqual([orphan]);
});

test('a table whose parent links loop, or whose process names hold parentheses, still ends with the right answer', () => {
  // 10 → 11 → 12 → 10 loops; 13's name is built to look like another parent.
  const stats: Record<number, string> = {
    10: '10 (a) S 12 10 10',
    11: '11 (b) S 10 11 11',
    12: '12 (c) S 11 12 12',
    13: '13 (evil) S 99 (x) S 10) S 11 13 13',
    14: '14 (zombie) Z 11 14 14',
  };
  const table: ProcTable = { pids: () => Object.keys(stats).map(Number), stat: (pid) => stats[pid] ?? null, environ: () => null };
  expect(findDescendants([10], null, table).sort()).toEqual([11, 12, 13]);
  expect(parseStat(stats[13]!)).toEqual({ ppid: 11, state: 'S' });
  expect(findDescendants([99], null, table)).toEqual([]);
});
