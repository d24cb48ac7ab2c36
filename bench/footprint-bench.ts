// `npm run bench -- footprint [runs]`: what the app costs at rest. Each run starts the headless shell as
// `npm run serve` does (a real child process, fresh data folder, the bundled plugins that are on by default)
// and measures:
//   listening_ms       — process start → the shell prints its URL (database open, server listening);
//   ready_ms           — process start → every plugin that is on is ready: Active, or for a lazy plugin (one
//                        whose manifest declares its contributions and activation events) idle, its
//                        declarations installed without a process (plugins.list over the WebSocket API, asked
//                        again until it says so);
//   main_rss_mb        — resident memory of the shell's process, 1 s after ready;
//   plugins_rss_mb     — the sum over every process under it (its plugin processes), from /proc;
//   total_rss_mb       — both;
// then copies ten copies (BENCH_USER_COPIES) of a lazy user plugin (tests/fixtures/user-plugins/lazy_user: its
// manifest declares a tool and a status segment and `onTool`) into the data folder's plugins/, rescans,
// switches them on with the user's confirmation, waits until they are ready (idle: their tools offered, no
// process), leaves them uncalled, checks that none has a process, and measures again:
//   enable10_ms        — rescan + confirm → all ten ready;
//   per_idle_plugin_mb — (total_rss_mb after − before) / 10;
// then runs one copy's command (`/bench_user_0`, over the API), which starts that copy, and measures again:
//   first_use_ms       — the command sent → its answer: the copy's process start, handshake and the call;
//   started_plugin_mb  — total_rss_mb after it − with the ten idle: what one started plugin costs.
// Figures are medians over the runs (3 by default); the last line of output is one JSON object.
// Targets (issue 13): ready_ms ≤ 1,000; total_rss_mb ≤ 250; per_idle_plugin_mb ≤ 5.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { findDescendants } from '../src/main/plugins/index.ts';
import { PluginListing, type PluginView, WIRE_PATH, WireFrame } from '../src/shared/api/index.ts';

const RUNS = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 3);
const USER_COPIES = Number(process.env.BENCH_USER_COPIES ?? 10);
const SETTLE_MS = 1000;
const READY_TIMEOUT_MS = 60_000;
const root = resolve(import.meta.dirname, '..');
const USER_FIXTURE_ID = 'lazy_user';
const userFixture = join(root, 'tests/fixtures/user-plugins', USER_FIXTURE_ID);

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0; // gone between listing and reading
  }
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The API over the shell's WebSocket, as the renderer uses it. */
class ApiClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly socket: WebSocket;
  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => {
      const frame = WireFrame.parse(JSON.parse(String(data)));
      if (frame.kind !== 'result') return;
      const call = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (frame.ok) call?.resolve(frame.value);
      else call?.reject(new Error(`${frame.error.code}: ${frame.error.message}`));
    });
    // A closed socket answers nothing more: every pending call fails with the shell's reason.
    socket.on('close', (code, reason) => {
      for (const call of this.pending.values()) call.reject(new Error(`The shell closed the API socket (${code} ${String(reason)}).`));
      this.pending.clear();
    });
  }

  static async connect(url: URL): Promise<ApiClient> {
    const socket = new WebSocket(`ws://${url.host}${WIRE_PATH}?token=${url.searchParams.get('token')}`, { origin: `http://${url.host}` });
    await new Promise((resolvePromise, reject) => {
      socket.once('open', resolvePromise);
      socket.once('error', reject);
    });
    return new ApiClient(socket);
  }

  call(channel: string, input: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolvePromise, reject) => {
      this.pending.set(id, { resolve: resolvePromise, reject });
      this.socket.send(JSON.stringify({ id, channel, input: input ?? {} }));
    });
  }

  async plugins(): Promise<PluginView[]> {
    return PluginListing.parse(await this.call('plugins.list', undefined)).plugins;
  }

  close(): void {
    this.socket.close();
  }
}

/** Asks plugins.list until every plugin that is on is ready (Active, or idle for a lazy one); throws with the laggards' states after the limit. */
async function untilAllReady(api: ApiClient, ids?: readonly string[]): Promise<PluginView[]> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const plugins = await api.plugins();
    const waited = plugins.filter((p) => (ids ? ids.includes(p.id) : p.enabled));
    const waiting = waited.filter((p) => p.state !== 'active' && p.state !== 'idle');
    if (waiting.length === 0 && (!ids || waited.length === ids.length)) return plugins;
    const broken = waiting.some((p) => p.state === 'failed' || p.state === 'incompatible');
    if (broken || performance.now() > deadline) {
      throw new Error(
        `Plugins did not become ready${broken ? '' : ` within ${READY_TIMEOUT_MS} ms`}: ${waiting.map((p) => `${p.id} (${p.state}${p.reason ? `: ${p.reason}` : ''})`).join(', ')}`,
      );
    }
    await pause(5);
  }
}

function footprint(shellPid: number): { main: number; plugins: number; processes: number } {
  const below = findDescendants([shellPid]);
  return { main: rssMb(shellPid), plugins: below.reduce((sum, pid) => sum + rssMb(pid), 0), processes: below.length };
}

function startShell(dir: string): { child: ChildProcess; url: Promise<URL> } {
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Amber</title>');
  const child = spawn(process.execPath, [join(root, 'scripts/serve.mjs'), '--data-dir', join(dir, 'data'), '--port', '0', '--renderer-dir', rendererDir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '--disable-warning=ExperimentalWarning', AMBER_WORKSPACE: dir },
  });
  const url = new Promise<URL>((resolvePromise, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /is running at (\S+)/.exec(out);
      if (m) resolvePromise(new URL(m[1]!));
    });
    child.once('exit', (code) => reject(new Error(`The shell exited early with code ${code}.`)));
  });
  return { child, url };
}

interface RunFigures {
  listening_ms: number;
  ready_ms: number;
  main_rss_mb: number;
  plugins_rss_mb: number;
  total_rss_mb: number;
  plugin_processes: number;
  enable10_ms: number;
  main_rss_mb_with_10: number;
  plugins_rss_mb_with_10: number;
  total_rss_mb_with_10: number;
  per_idle_plugin_mb: number;
  first_use_ms: number;
  started_plugin_mb: number;
}

async function run(): Promise<RunFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'amber-footprint-bench-'));
  const t0 = performance.now();
  const { child, url } = startShell(dir);
  let api: ApiClient | null = null;
  try {
    const shellUrl = await url;
    const listening = performance.now() - t0;
    api = await ApiClient.connect(shellUrl);
    await untilAllReady(api);
    const ready = performance.now() - t0;
    await pause(SETTLE_MS);
    const before = footprint(child.pid!);

    const ids = Array.from({ length: USER_COPIES }, (_, i) => `bench_user_${i}`);
    for (const id of ids) {
      const target = join(dir, 'data', 'plugins', id);
      cpSync(userFixture, target, { recursive: true });
      // Tool names and segment ids are global: each copy names its own (and its id) after its id.
      const manifest = JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8').replaceAll(USER_FIXTURE_ID, id)) as Record<string, unknown>;
      writeFileSync(join(target, 'manifest.json'), JSON.stringify({ ...manifest, name: `Bench copy ${id}` }));
      writeFileSync(join(target, 'index.js'), readFileSync(join(target, 'index.js'), 'utf8').replaceAll(USER_FIXTURE_ID, id));
    }
    const t1 = performance.now();
    await api.call('plugins.rescan', undefined);
    await Promise.all(ids.map((id) => api!.call('plugins.setState', { id, enabled: true, confirm: true })));
    const copies = (await untilAllReady(api, ids)).filter((p) => ids.includes(p.id));
    const enable10 = performance.now() - t1;
    // The figure is for plugins that were not called: none may have started (or failed).
    const running = copies.filter((p) => p.state !== 'idle' || p.pid !== null);
    if (running.length > 0)
      throw new Error(`The lazy copies should be idle without a process: ${running.map((p) => `${p.id} ${p.state} pid ${p.pid}`).join(', ')}`);
    const offered = copies.filter((p) => p.contributions.some((c) => c.kind === 'tool' && c.key === p.id && c.status === 'installed'));
    if (offered.length !== ids.length) throw new Error(`Each lazy copy should offer its tool before it starts; ${offered.length} of ${ids.length} do.`);
    await pause(SETTLE_MS);
    const after = footprint(child.pid!);

    const t2 = performance.now();
    const used = (await api.call('commands.run', { input: `/${ids[0]}` })) as { result: { kind: string; text: string } };
    const firstUse = performance.now() - t2;
    if (used.result.kind !== 'ok' || !used.result.text.startsWith('hello from '))
      throw new Error(`The first use of ${ids[0]} did not answer: ${JSON.stringify(used.result)}`);
    await pause(SETTLE_MS);
    const started = footprint(child.pid!);

    const total = before.main + before.plugins;
    const totalAfter = after.main + after.plugins;
    return {
      listening_ms: round(listening, 0),
      ready_ms: round(ready, 0),
      main_rss_mb: round(before.main),
      plugins_rss_mb: round(before.plugins),
      total_rss_mb: round(total),
      plugin_processes: before.processes,
      enable10_ms: round(enable10, 0),
      main_rss_mb_with_10: round(after.main),
      plugins_rss_mb_with_10: round(after.plugins),
      total_rss_mb_with_10: round(totalAfter),
      per_idle_plugin_mb: round((totalAfter - total) / USER_COPIES),
      first_use_ms: round(firstUse, 0),
      started_plugin_mb: round(started.main + started.plugins - totalAfter),
    };
  } finally {
    api?.close();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs: RunFigures[] = [];
for (let i = 0; i < RUNS; i++) {
  const figures = await run();
  runs.push(figures);
  console.log(`run ${i + 1}/${RUNS}: ${JSON.stringify(figures)}`);
}
const keys = Object.keys(runs[0]!) as (keyof RunFigures)[];
const medians = Object.fromEntries(keys.map((k) => [k, round(median(runs.map((r) => r[k])), k.endsWith('_ms') || k === 'plugin_processes' ? 0 : 1)]));
console.log(JSON.stringify({ runs: RUNS, ...medians, targets: { ready_ms: 1000, total_rss_mb: 250, per_idle_plugin_mb: 5 } }));
