// `npm run bench:sandbox`: what the OS sandbox adds to a shell command. Runs `true` through the bash tool's
// own path (sandbox plan, spawn, output, exit) in this one process, interleaved so each kind sees the same load:
//   unsandboxed_p50_ms/p90 — the call main marks unsandboxed (the environment allow-list still applies);
//   read_p50_ms/p90        — the read sandbox (bubblewrap on Linux, Seatbelt on macOS);
//   write_p50_ms/p90       — the write sandbox over this repository as the workspace (its protected paths
//                            looked up, from the cache after the first call);
//   overhead_read_p50_ms   — read p50 minus unsandboxed p50;
//   walk_cold_ms           — one uncached walk of this repository for its protected paths.
// BENCH_RUNS (default 200) runs of each. The last line is one JSON object.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ShellSandbox } from '../src/shared/tools/index.ts';
import { createBashTool } from '../src/plugins/workspace-tools/index.ts';
import { findProtectedEntries } from '../src/plugins/workspace-tools/sandbox/index.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const root = realpathSync(resolve(import.meta.dirname, '..'));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

const kinds: Record<'unsandboxed' | 'read' | 'write', ShellSandbox> = {
  unsandboxed: { mode: 'write', network: false, unsandboxed: true },
  read: { mode: 'read', network: false },
  write: { mode: 'write', network: false },
};
const tool = createBashTool();
const times: Record<keyof typeof kinds, number[]> = { unsandboxed: [], read: [], write: [] };

const walkStart = performance.now();
const walk = findProtectedEntries(root);
const walkColdMs = performance.now() - walkStart;

// Warm-up: the probe runs once, the walk cache fills, Node's spawn path warms.
for (const sandbox of Object.values(kinds)) {
  const out = await tool.execute({ command: 'true' }, { root, sandbox });
  if (out.isError) throw new Error(`\`true\` failed: ${out.content.map((c) => c.text).join('')}`);
}
for (let i = 0; i < RUNS; i++) {
  for (const [kind, sandbox] of Object.entries(kinds) as [keyof typeof kinds, ShellSandbox][]) {
    const t0 = performance.now();
    const out = await tool.execute({ command: 'true' }, { root, sandbox });
    times[kind].push(performance.now() - t0);
    if (out.isError) throw new Error(`\`true\` failed in ${kind}.`);
  }
}

const figures = {
  runs: RUNS,
  platform: process.platform,
  unsandboxed_p50_ms: round(percentile(times.unsandboxed, 50)),
  unsandboxed_p90_ms: round(percentile(times.unsandboxed, 90)),
  read_p50_ms: round(percentile(times.read, 50)),
  read_p90_ms: round(percentile(times.read, 90)),
  write_p50_ms: round(percentile(times.write, 50)),
  write_p90_ms: round(percentile(times.write, 90)),
  overhead_read_p50_ms: round(percentile(times.read, 50) - percentile(times.unsandboxed, 50)),
  walk_cold_ms: round(walkColdMs),
  walk_dirs: walk.dirs,
  protected_found: walk.paths.length,
};
console.log(
  `bash \`true\` over ${RUNS} runs each: unsandboxed p50 ${figures.unsandboxed_p50_ms} ms, read ${figures.read_p50_ms} ms, write ${figures.write_p50_ms} ms`,
);
console.log(JSON.stringify(figures));
