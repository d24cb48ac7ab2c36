// `npm run bench:plugins`: the plugin runtime on real processes. Measures, in one run:
//   registry_call_p50_us / registry_call_p99_us — one call of main's tool registry (ToolRegistry.execute)
//                               → the plugin process → back, 10,000 calls of an echo tool. A registry call,
//                               not an agent tool call: no agent loop, policy, approval or session store
//                               (bench:stream times whole agent turns);
//   raw_p50_us / raw_p99_us   — a bare ping-pong on the same kind of pipe (newline-delimited JSON on an extra
//                               stdio pipe), no comlink, no gate;
//   ratio_p50                 — registry_call_p50_us / raw_p50_us (target ≤ 2);
//   activate_p50_ms           — enable → Active for the example plugin, p50 over 20, with Node's compile
//                               cache warm (target ≤ 150 ms);
//   activate_cold_p50_ms      — the same without a compile cache (NODE_COMPILE_CACHE unset): TypeScript is
//                               stripped and compiled again at every start, as on a first start, p50 over 10;
//   enable10_ms               — enabling 10 plugins at once until all are Active;
//   idle_rss_mb               — resident memory of an idle plugin process (target ≤ 60 MB).
// Each figure but the cold one is measured twice: for plugins in processes of their own (the top-level
// figures) and for plugins in one shared host (under `shared`; there `activate_p50_ms` is joining a running
// host and `idle_rss_mb` is what one more idle plugin adds to the host).
// The last line of output is one JSON object.
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createForkLauncher, type PluginDescriptor, PluginService } from '../src/main/plugins/index.ts';
import { SessionStore } from '../src/main/sessions/index.ts';
import { PluginManifest } from '../src/shared/plugins/plugin-manifest.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const WARMUP = 500;
const ACTIVATIONS = 20;
const COLD_ACTIVATIONS = 10;
const root = resolve(import.meta.dirname, '..');

function descriptor(dir: string, id?: string): PluginDescriptor {
  const manifest = PluginManifest.parse({ ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), ...(id ? { id } : {}), enabledByDefault: false });
  return { manifest, source: 'bundled', entry: join(dir, manifest.entry), dir };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const dir = mkdtempSync(join(tmpdir(), 'amber-plugins-bench-'));
const echoDir = join(root, 'tests/fixtures/plugins/echo');
const exampleDir = join(root, 'src/plugins/example');
const plugins = [
  descriptor(exampleDir),
  descriptor(echoDir),
  descriptor(echoDir, 'anchor'),
  ...Array.from({ length: 10 }, (_, i) => descriptor(echoDir, `echo_${i}`)),
];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw ping-pong child on the same kind of pipe (newline-delimited JSON on fd 3), without comlink or the gate. */
function startRawEcho(): { roundTrip(i: number, args: unknown): Promise<unknown>; stop(): void } {
  const rawChild = join(dir, 'raw-echo.mjs');
  writeFileSync(
    rawChild,
    [
      "import { Socket } from 'node:net';",
      'const pipe = new Socket({ fd: 3, readable: true, writable: true });',
      "let buffered = '';",
      "pipe.on('data', (chunk) => {",
      '  buffered += chunk;',
      '  let nl;',
      "  while ((nl = buffered.indexOf('\\n')) !== -1) {",
      '    const m = JSON.parse(buffered.slice(0, nl));',
      '    buffered = buffered.slice(nl + 1);',
      "    pipe.write(JSON.stringify({ id: m.id, content: [{ type: 'text', text: m.args.text }], isError: false }) + '\\n');",
      '  }',
      '});',
      "pipe.on('end', () => process.exit(0));",
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [rawChild], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] });
  child.on('error', () => {});
  const rawPipe = child.stdio[3] as Socket;
  let answer: ((m: unknown) => void) | null = null;
  let rawBuffered = '';
  rawPipe.on('data', (chunk: Buffer) => {
    rawBuffered += chunk.toString('utf8');
    let nl = rawBuffered.indexOf('\n');
    while (nl !== -1) {
      const m: unknown = JSON.parse(rawBuffered.slice(0, nl));
      rawBuffered = rawBuffered.slice(nl + 1);
      nl = rawBuffered.indexOf('\n');
      answer?.(m);
    }
  });
  return {
    roundTrip: (i, args) =>
      new Promise((r) => {
        answer = r;
        rawPipe.write(`${JSON.stringify({ id: i, name: 'echo', args })}\n`);
      }),
    stop: () => child.kill(),
  };
}

interface ModeFigures {
  registry_call_p50_us: number;
  registry_call_p99_us: number;
  raw_p50_us: number;
  raw_p99_us: number;
  ratio_p50: number;
  activate_p50_ms: number;
  activate_p99_ms: number;
  enable10_ms: number;
  /** own: the RSS of an idle plugin process; shared: what one more idle plugin adds to its shared host (ten joined at once, per plugin). */
  idle_rss_mb: number;
  /** own: the RSS of the plugin process after the 10,000 calls; shared: the host's growth from the anchor alone to after the calls. */
  idle_after_calls_rss_mb: number;
}

/**
 * Every figure for one placement: `own` (each plugin a process of its own) or `shared` (all in one shared
 * host, kept running by an anchor plugin, as the bundled plugins are).
 */
async function measure(mode: 'own' | 'shared'): Promise<ModeFigures> {
  const store = SessionStore.open(join(dir, `${mode}.db`));
  const service = new PluginService({
    store,
    dataDir: dir,
    workspace: dir,
    plugins,
    launcher: createForkLauncher({ execArgv: [] }),
    sharedHosts: mode === 'shared',
  });
  const raw = startRawEcho();
  try {
    await service.start();
    // The shared host with only the anchor in it, before any other plugin joined it.
    let hostAlone = 0;
    if (mode === 'shared') {
      await service.setState('anchor', true);
      await pause(1000);
      hostAlone = rssMb(service.get('anchor').pid!);
    }

    // 1. Tool call round trips through the registry, interleaved in blocks with 2. the raw ping-pong, so both
    // see the same load.
    await service.setState('echo', true);
    const args = { text: 'hello' };
    const callTimes: number[] = [];
    const rawTimes: number[] = [];
    const BLOCK = 250;
    for (let done = -WARMUP; done < CALLS; done += BLOCK) {
      for (let i = 0; i < BLOCK; i++) {
        const t = performance.now();
        const out = await service.registries.tools.execute('echo', args);
        const dt = performance.now() - t;
        if (out.isError) throw new Error(`The echo tool failed: ${out.content[0]?.text}`);
        if (done >= 0) callTimes.push(dt * 1000);
      }
      for (let i = 0; i < BLOCK; i++) {
        const t = performance.now();
        await raw.roundTrip(i, args);
        if (done >= 0) rawTimes.push((performance.now() - t) * 1000);
      }
    }
    callTimes.sort((a, b) => a - b);
    rawTimes.sort((a, b) => a - b);

    // 3. Memory of an idle plugin, a second after the calls and fresh. In a shared host: the host's growth
    // once the plugin has joined it (and been called), against the host with the anchor alone.
    const echoPid = service.get('echo').pid!;
    await pause(1000);
    const afterCallsRss = rssMb(echoPid) - hostAlone;
    await service.setState('echo', false);
    await service.setState('echo', true);
    await pause(1000);
    const idleRss = rssMb(service.get('echo').pid!) - hostAlone;
    await service.setState('echo', false);

    // 4. enable → Active, one plugin, 20 times (in a shared host: joining the running host).
    const activations: number[] = [];
    for (let i = 0; i < ACTIVATIONS; i++) {
      const t = performance.now();
      const info = await service.setState('example', true);
      activations.push(performance.now() - t);
      if (info.state !== 'active') throw new Error(`The example plugin did not activate: ${info.reason}`);
      await service.setState('example', false);
    }
    activations.sort((a, b) => a - b);

    // 5. Ten plugins enabled at once. In a shared host, what they add to it, per plugin, is the idle cost of
    // a plugin there (the host's own growth from the calls above is already in the figure before them).
    const before10 = mode === 'shared' ? rssMb(service.get('anchor').pid!) : 0;
    const t10 = performance.now();
    const infos = await Promise.all(Array.from({ length: 10 }, (_, i) => service.setState(`echo_${i}`, true)));
    const enable10 = performance.now() - t10;
    if (infos.some((i) => i.state !== 'active'))
      throw new Error(`Not all ten plugins activated: ${infos.map((i) => `${i.id} ${i.state} ${i.reason ?? ''}`).join('; ')}`);
    let perSharedPlugin = 0;
    if (mode === 'shared') {
      await pause(1000);
      perSharedPlugin = (rssMb(service.get('anchor').pid!) - before10) / 10;
    }

    const call_p50_us = round(percentile(callTimes, 50));
    const raw_p50_us = round(percentile(rawTimes, 50));
    return {
      registry_call_p50_us: call_p50_us,
      registry_call_p99_us: round(percentile(callTimes, 99)),
      raw_p50_us,
      raw_p99_us: round(percentile(rawTimes, 99)),
      ratio_p50: round(call_p50_us / raw_p50_us, 2),
      activate_p50_ms: round(percentile(activations, 50)),
      activate_p99_ms: round(activations.at(-1)!),
      enable10_ms: round(enable10),
      idle_rss_mb: mode === 'shared' ? round(perSharedPlugin, 2) : round(idleRss),
      idle_after_calls_rss_mb: round(afterCallsRss),
    };
  } finally {
    raw.stop();
    await service.dispose();
    store.close();
  }
}

/** enable → Active without a compile cache (NODE_COMPILE_CACHE unset), in an own process, as on a first start. */
async function measureCold(): Promise<number> {
  const coldStore = SessionStore.open(join(dir, 'cold.db'));
  const cold = new PluginService({
    store: coldStore,
    dataDir: dir,
    workspace: dir,
    plugins: [descriptor(exampleDir)],
    launcher: createForkLauncher({ execArgv: [], compileCacheDir: false }),
    sharedHosts: false,
  });
  const coldActivations: number[] = [];
  try {
    await cold.start();
    for (let i = 0; i < COLD_ACTIVATIONS; i++) {
      const t = performance.now();
      const info = await cold.setState('example', true);
      coldActivations.push(performance.now() - t);
      if (info.state !== 'active') throw new Error(`The example plugin did not activate without a compile cache: ${info.reason}`);
      await cold.setState('example', false);
    }
  } finally {
    await cold.dispose();
    coldStore.close();
  }
  coldActivations.sort((a, b) => a - b);
  return round(percentile(coldActivations, 50));
}

try {
  const own = await measure('own');
  const shared = await measure('shared');
  const activate_cold_p50_ms = await measureCold();
  const result = {
    calls: CALLS,
    ...own,
    activate_cold_p50_ms,
    shared: shared,
    targets: { ratio_p50: 2, activate_p50_ms: 150, idle_rss_mb: 60 },
    node: process.versions.node,
  };
  for (const [name, r] of [
    ['own process', own],
    ['shared host', shared],
  ] as const) {
    console.log(
      `${name}: registry tool call p50 ${r.registry_call_p50_us} µs (p99 ${r.registry_call_p99_us}); raw pipe p50 ${r.raw_p50_us} µs; ratio ${r.ratio_p50}`,
    );
    console.log(
      `${name}: activate p50 ${r.activate_p50_ms} ms; 10 at once ${r.enable10_ms} ms; idle plugin ${r.idle_rss_mb} MB${name === 'shared host' ? ' added to the host' : ''}`,
    );
  }
  console.log(`activate without a compile cache (own process) p50 ${activate_cold_p50_ms} ms`);
  console.log(JSON.stringify(result));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
