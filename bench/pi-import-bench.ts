// `npm run bench -- pi-import [N]`: importing a pi session file of N entries (default 11,000, a long real session).
// Writes a version 3 file the way pi does (a header, then a JSON line per entry: turns of a user message, a reply
// with thinking and a tool call, its result and an answer; the leaf jumps back every ~50 entries so the next one
// forks, a compaction every ~500, labels and model changes along the way), then measures, in fresh processes,
// medians of AMBER_BENCH_SAMPLES (default 5), interleaved:
//   cli_cold_ms — `amber import-pi FILE` as a user runs it, from the process's start to its exit, with an empty
//                 compile cache (the first command after an install or an update);
//   cli_warm_ms — the same with the compile cache the command line keeps (every command after the first);
// and, inside one process, what the command does: load_ms (loading the session store's modules), open_ms (the store
// on a fresh data folder), parse_ms (reading and checking the file, once on its own), write_ms (import_ms less
// parse_ms: about the one transaction that stores it; the import's own parse runs warm, so it is a little low),
// import_ms and import_cpu_ms (parse and write: the import alone) and close_ms. Beside each wall time of the command line, the CPU time
// its process used (*_cpu_ms): on a busy machine the wall time is mostly waiting for a core. The last line is one JSON object.
//
// AMBER_BENCH_BASELINE=REV (a git revision) measures that revision's command line and store too, its processes
// taking turns with this one's, and reports its medians beside these.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomWords as text, seededRandom as rng } from '../tests/fixtures/seeded-random.ts';
import { baselineAt } from './baseline-at.ts';

const ROOT = resolve(import.meta.dirname, '..');

const usage = {
  input: 1200,
  output: 300,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 1500,
  cost: { input: 0.0036, output: 0.0045, cacheRead: 0, cacheWrite: 0, total: 0.0081 },
};

function messageAt(i: number, rand: () => number, at: number): Record<string, unknown> {
  switch (i % 4) {
    case 0:
      return { role: 'user', content: [{ type: 'text', text: text(rand, 30) }], timestamp: at };
    case 1:
      return {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: text(rand, 20), thinkingSignature: `sig-${i}` },
          { type: 'text', text: text(rand, 60) },
          { type: 'toolCall', id: `toolu_${i}`, name: 'read', arguments: { path: `src/file-${i % 97}.ts` } },
        ],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-bench',
        usage,
        stopReason: 'toolUse',
        timestamp: at,
      };
    case 2:
      return {
        role: 'toolResult',
        toolCallId: `toolu_${i - 1}`,
        toolName: 'read',
        content: [{ type: 'text', text: text(rand, 150) }],
        isError: false,
        timestamp: at,
      };
    default:
      return {
        role: 'assistant',
        content: [{ type: 'text', text: text(rand, 80) }],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-bench',
        usage,
        stopReason: 'stop',
        timestamp: at,
      };
  }
}

/** A pi version 3 session file of `n` entries, its last line the leaf. */
export function piSessionText(n: number, seed = 0x5eed): string {
  const rand = rng(seed);
  const start = Date.parse('2026-03-14T09:12:00.000Z');
  const lines = [
    JSON.stringify({
      type: 'session',
      version: 3,
      id: '7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57',
      timestamp: new Date(start).toISOString(),
      cwd: '/home/dev/bench',
    }),
  ];
  const parents = new Map<string, string | null>();
  const ids: string[] = [];
  let leaf: string | null = null;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 50 === 0) {
      // Back up the current path (an edit or a regenerate), so the next entry forks.
      const steps = 1 + Math.floor(rand() * 30);
      for (let k = 0; k < steps && parents.get(leaf!); k++) leaf = parents.get(leaf!)!;
    }
    const id = (0x10000000 + i).toString(16);
    const at = start + i * 1000;
    const head = { id, parentId: leaf, timestamp: new Date(at).toISOString() };
    let line: Record<string, unknown>;
    if (i > 0 && i % 500 === 0) {
      // Keep the last ~20 entries of the current path.
      let kept = leaf!;
      for (let k = 0; k < 20 && parents.get(kept); k++) kept = parents.get(kept)!;
      line = { type: 'compaction', ...head, summary: text(rand, 120), firstKeptEntryId: kept, tokensBefore: 90_000 };
    } else if (i > 0 && i % 997 === 0) {
      line = { type: 'model_change', ...head, provider: 'anthropic', modelId: `claude-bench-${i}` };
    } else if (i > 0 && i % 301 === 0) {
      line = { type: 'label', ...head, targetId: ids[Math.floor(rand() * ids.length)]!, label: text(rand, 2) };
    } else {
      line = { type: 'message', ...head, message: messageAt(i, rand, at) };
    }
    lines.push(JSON.stringify(line));
    parents.set(id, leaf);
    ids.push(id);
    leaf = id;
  }
  return `${lines.join('\n')}\n`;
}

/** Runs in a fresh process: the import-pi command's steps, each timed (it opens the session store alone, as the command does). */
async function measureSteps(file: string, dataDir: string, root: string): Promise<Record<string, number>> {
  let t = performance.now();
  const { SessionStore, importPiSession } = (await import(join(root, 'src/main/sessions/index.ts'))) as typeof import('../src/main/sessions/index.ts');
  const { parsePiSession } = (await import(join(root, 'src/main/sessions/pi-session-format.ts'))) as typeof import('../src/main/sessions/pi-session-format.ts');
  const load_ms = performance.now() - t;
  t = performance.now();
  const store = SessionStore.open(join(dataDir, 'amber.db'));
  const open_ms = performance.now() - t;
  const fileText = readFileSync(file, 'utf8');
  // The parse alone, on its own (the import below parses again: it is what the command runs).
  t = performance.now();
  const parsed = parsePiSession(fileText);
  const parse_ms = performance.now() - t;
  t = performance.now();
  let cpu = process.cpuUsage();
  const result = importPiSession(store, fileText);
  const import_ms = performance.now() - t;
  cpu = process.cpuUsage(cpu);
  t = performance.now();
  store.close();
  const close_ms = performance.now() - t;
  if (result.entries !== parsed.entries.length || result.entries === 0) throw new Error('the import stored other than what the file holds');
  const import_cpu_ms = (cpu.user + cpu.system) / 1000;
  return { load_ms, open_ms, parse_ms, write_ms: import_ms - parse_ms, import_ms, import_cpu_ms, close_ms, entries: result.entries };
}

/** Prints the process's CPU time on stderr as it exits (preloaded into the command line's process). */
const CPU_AT_EXIT = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu_ms '+(u.user+u.system)/1000)})`;

/** `amber import-pi FILE` in a child process, timed from its spawn to its exit, with the CPU time it used. */
function cliRun(root: string, file: string, dataDir: string, cacheDir: string): { wall: number; cpu: number } {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
  delete env.npm_lifecycle_event;
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', `--import=${CPU_AT_EXIT}`, join(root, 'src/main/cli/cli.ts'), 'import-pi', file, '--json', '--data-dir', dataDir],
    {
      env,
      encoding: 'utf8',
    },
  );
  const wall = performance.now() - t;
  const cpu = Number(/cpu_ms (\S+)$/.exec(r.stderr)?.[1]);
  if (r.status !== 0 || Number.isNaN(cpu)) throw new Error(`amber import-pi failed: ${r.stderr}`);
  return { wall, cpu };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));

const args = process.argv.slice(2);
if (!import.meta.main) {
  // Imported for its file writer: nothing to run.
} else if (args[0] === '--measure') {
  console.log(JSON.stringify(await measureSteps(args[1]!, args[2]!, args[3] ?? ROOT)));
} else {
  const n = Number(args[0] ?? 11_000);
  const samples = Number(process.env.AMBER_BENCH_SAMPLES ?? 5);
  if (!Number.isInteger(n) || n < 10 || !Number.isInteger(samples) || samples < 1) {
    console.error('usage: npm run bench -- pi-import [N]   (N ≥ 10 entries, default 11,000; AMBER_BENCH_SAMPLES, default 5)');
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'amber-import-bench-'));
  try {
    const file = join(dir, 'session.jsonl');
    const written = piSessionText(n);
    writeFileSync(file, written);
    const baselineRev = process.env.AMBER_BENCH_BASELINE;
    const roots: [string, string][] = [['', ROOT]];
    if (baselineRev) roots.unshift(['baseline', baselineAt(baselineRev, dir)]);
    const runs = new Map<string, Record<string, number>[]>(roots.map(([name]) => [name, []]));
    for (const [name, root] of roots) cliRun(root, file, join(dir, `warm-up-${name}`), join(dir, `cache-warm-${name}`));
    for (let k = 0; k < samples; k++) {
      // With a baseline, the two take turns (first one, then the other) so both see the same machine load.
      for (const [name, root] of k % 2 ? [...roots].reverse() : roots) {
        const cold = cliRun(root, file, join(dir, `cold-${name}-${k}`), join(dir, `cache-cold-${name}-${k}`));
        const warm = cliRun(root, file, join(dir, `warm-${name}-${k}`), join(dir, `cache-warm-${name}`));
        const stepsDir = join(dir, `steps-${name}-${k}`);
        mkdirSync(stepsDir);
        const child = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--measure', file, stepsDir, root], {
          encoding: 'utf8',
          env: { ...process.env, NODE_COMPILE_CACHE: join(dir, `cache-warm-${name}`) },
        });
        if (child.status !== 0) throw new Error(`the measuring process failed: ${child.stderr}`);
        const steps = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
        runs.get(name)!.push({ cli_cold_ms: cold.wall, cli_cold_cpu_ms: cold.cpu, cli_warm_ms: warm.wall, cli_warm_cpu_ms: warm.cpu, ...steps });
      }
    }
    const mediansOf = (all: Record<string, number>[]) => Object.fromEntries(Object.keys(all[0]!).map((key) => [key, median(all.map((r) => r[key]!))]));
    console.log(`pi import of ${n} entries (${(written.length / 1024 / 1024).toFixed(1)} MB): medians of ${samples} samples, each in fresh processes`);
    if (baselineRev) console.log(`baseline ${baselineRev}: ${JSON.stringify(round({ samples, ...mediansOf(runs.get('baseline')!) }))}`);
    const result = round({ n, samples, ...mediansOf(runs.get('')!) });
    console.log(JSON.stringify(baselineRev ? { ...result, baseline: baselineRev } : result));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
