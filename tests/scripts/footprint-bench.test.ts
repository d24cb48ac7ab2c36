// The footprint benchmark runs end to end on a real shell and reports figures that add up.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

test.runIf(process.platform === 'linux')(
  'the footprint benchmark measures a real shell and its plugins and ends with one JSON object',
  async () => {
    const child = spawn(process.execPath, [resolve(root, 'bench/footprint-bench.ts'), '1'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '', BENCH_USER_COPIES: '2' },
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(0);
    const figures = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number>;
    expect(figures.runs).toBe(1);
    expect(figures.ready_ms).toBeGreaterThan(0);
    expect(figures.plugin_processes).toBeGreaterThanOrEqual(1);
    // A Node process holds tens of MB: zeros would mean /proc was not read.
    expect(figures.main_rss_mb).toBeGreaterThan(20);
    expect(figures.plugins_rss_mb).toBeGreaterThan(20 * figures.plugin_processes!);
    expect(Math.abs(figures.total_rss_mb! - figures.main_rss_mb! - figures.plugins_rss_mb!)).toBeLessThan(0.5);
    // Idle plugins may one day cost nothing (lazy start): only that the figure was computed is pinned.
    expect(figures.total_rss_mb_with_10).toBeGreaterThan(0);
    expect(Number.isFinite(figures.per_idle_plugin_mb)).toBe(true);
  },
  60_000,
);
