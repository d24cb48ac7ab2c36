// Provider streaming benchmark: `npm run bench:stream`. Prints progress lines, then one JSON object on the
// last line. Everything runs against the loopback provider server; nothing leaves the machine. Every figure
// of the 100-turn runs is the median of BENCH_STREAM_RUNS samples (default 7), each on a fresh session, after
// BENCH_STREAM_WARMUPS warm-up runs of every row (default 5; before, 1).
//
//   events_per_s_p50          text deltas decoded (SSE → JSON → ProviderEvent) per second by the dialect
//                             in this process, unpaced, median of 5 streams
//   request_body_kept_us      the 100th turn's request body (the agent's system prompt and tools, 201 messages)
//                             made from the kept bytes of each frozen message, as the provider's process
//                             makes it (median µs); request_body_whole_us: serialised whole and encoded, as
//                             it was made before; request_body_bytes: its size; anthropic_request_body_*_us
//                             the same request made both ways in the Anthropic dialect
//   chunk_overhead_p50/99_us  per-chunk latency from the server's socket write to the event reaching the
//                             consumer in this process, with chunks paced so each arrives on its own
//   floor_run100_ms           the floor: the same 101 requests (100 turns and the confirm call) driven by a
//                             bare loop in this process (stream → run the read tool → next request); no
//                             agent, store, policy or plugin process. Its requests carry the agent's own
//                             system prompt and tool list (read from the agent's first request), and it keeps
//                             its messages frozen, as the provider's plugin process does, so both send the
//                             same bytes made the same way
//   floor_no_prompt_run100_ms the floor as measured before, with no system prompt, the read tool alone and
//                             messages that are not frozen: smaller requests than the agent's
//   floor_via_plugins_run100_ms  the floor's loop (same requests, no agent) with the provider and the read
//                             tool in their plugin processes, called through the app's registries as the
//                             agent calls them: what the process split alone costs. via_plugins_over_floor
//                             is its ratio to the floor
//   agent_inproc_run100_ms    the agent loop (store, policy, prompt, events) with the dialect and the read
//                             tool in this process: the engine's own cost over the floor
//   agent_plugin_run100_ms    the path users have: createApp with its plugins on, the OpenAI-compatible
//                             provider and the read tool in their plugin processes, events forwarded to
//                             the plugins that listen
//   agent_plugin_bare_run100_ms  the same with only the provider and workspace-tools plugins on: no plugin
//                             listens to the agent's events or checks an allowance before each model call
//   *_server_ms               the loopback server's own time inside each figure (median)
//   *_main_cpu_ms             of the plugin rows' CPU time, this process's share (the server's included): the
//                             engine's cost in main shows as the agent's share over the bare loop's
//   *_cpu_ms                  CPU time spent in each run (median): this process (which also hosts the
//                             loopback server) plus, for the plugin path, every plugin process. On a
//                             loaded machine it moves far less than the wall times above, which include
//                             waiting for the scheduler at each process hop
//   plugin_over_floor         agent_plugin_run100_ms / floor_run100_ms (target ≤ 1.5)
//   plugin_over_floor_no_prompt  agent_plugin_run100_ms / floor_no_prompt_run100_ms
//   *_messages_per_turn       messages main sent to plugin processes (to) and got from them (from) per turn
//                             of the plugin path (median): each can wake the other side, so this is the
//                             path's cross-process cost counted independently of how busy the machine is
//
// AMBER_BENCH_BASELINE=REV (a git revision) then also runs that revision's whole core in this process, as a
// second app with its own plugin processes started from its own sources, and takes the user's path in turns
// with this revision's (BENCH_STREAM_PAIRS pairs, default 15, after 5 warm-up pairs): `baseline` gives both
// medians, the median of the pairs' ratios, and each side's CPU time in main and in its plugin processes.
//
// AMBER_BENCH_PROFILE_DIR=DIR starts the plugin processes with --cpu-prof into DIR; run this file with
// `node --cpu-prof --cpu-prof-dir=DIR` to profile main beside them.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type App, type AppOptions, createApp } from '../src/main/app.ts';
import { createForkLauncher, DEFAULT_EXEC_ARGV, type PluginLauncher } from '../src/main/plugins/index.ts';
import { anthropicRequestBody, anthropicRequestBytes } from '../src/plugins/anthropic/index.ts';
import { createOpenAiCompatibleStream, openAiRequestBody, openAiRequestBytes, resolvePreset } from '../src/plugins/openai-compatible/index.ts';
import { readTool } from '../src/plugins/workspace-tools/index.ts';
import type { ModelInfo, ProviderEvent, StreamFn } from '../src/shared/providers/index.ts';
import type { ToolOutput, ToolSpec } from '../src/shared/tools/index.ts';
import { baselineAt } from './baseline-at.ts';
import { deepFreeze } from '../src/shared/sent-requests.ts';
import type { Message } from '../src/shared/sessions/index.ts';
import { openAiStream, startProviderServer, type ProviderServer, type Reply, type SseFrame } from '../tests/fixtures/provider-server.ts';

const MODEL: ModelInfo = { id: 'bench-model', contextWindow: 128_000, reasoning: false, pricing: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } };
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_STREAM_SAMPLES ?? 1000);
const RUNS = Math.max(5, Number(process.env.BENCH_STREAM_RUNS ?? 7));
/**
 * Warm-up runs of every row before the samples. A plugin process compiles the provider's and the tool's code
 * as a run uses it, so its first runs measure V8 tiering up (the floor's code is already hot in this process
 * from the events/s measurement): its run times fall for about five runs before they settle.
 */
const WARMUPS = Math.max(1, Number(process.env.BENCH_STREAM_WARMUPS ?? 5));
const TURNS = 100;
const root = resolve(import.meta.dirname, '..');

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** What a floor request carries beside the conversation. */
interface RequestParts {
  systemPrompt: string;
  tools: readonly ToolSpec[];
  /** Messages frozen as they are added, as the provider's plugin process holds them (its dialect then keeps their JSON). */
  freeze: boolean;
}

const NO_PROMPT: RequestParts = { systemPrompt: '', tools: [readTool.spec], freeze: false };

async function drain(
  stream: StreamFn,
  messages: Message[] = [{ role: 'user', content: 'go' }],
  onEvent?: (e: ProviderEvent) => void,
  parts: RequestParts = NO_PROMPT,
): Promise<Extract<ProviderEvent, { type: 'done' | 'error' }>> {
  let final: ProviderEvent | undefined;
  for await (const e of stream({ model: MODEL, systemPrompt: parts.systemPrompt, messages, tools: [...parts.tools] }, new AbortController().signal)) {
    onEvent?.(e);
    final = e;
  }
  if (!final || (final.type !== 'done' && final.type !== 'error')) throw new Error('stream ended without a final event');
  if (final.type === 'error') throw new Error(`stream failed: ${final.message.errorMessage}`);
  return final;
}

/** Unpaced: a long reply of small text deltas, as fast as the loopback socket carries them; median of 5. */
async function measureEventsPerSecond(server: ProviderServer, stream: StreamFn): Promise<number> {
  const tokens = Array.from({ length: EVENTS }, (_, i) => `tok${i % 10} `);
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    server.setScript(openAiStream({ text: tokens, usage: { input: 10, output: EVENTS } }));
    let count = 0;
    const t0 = performance.now();
    await drain(stream, undefined, () => count++);
    rates.push(count / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}

/** A frame built at write time whose text is the write time. */
const stamped: SseFrame = () => ({ data: { choices: [{ index: 0, delta: { content: `${performance.now()}` } }] } });

/** Paced: each chunk carries its write time; the consumer subtracts it from the time the event reached it. */
async function measureChunkOverhead(server: ProviderServer, stream: StreamFn): Promise<{ p50: number; p99: number; samples: number }> {
  const warmup = 50;
  const frames: SseFrame[] = [
    ...Array.from({ length: SAMPLES + warmup }, () => stamped),
    { data: { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } },
    'data: [DONE]\n\n',
  ];
  server.setScript({ kind: 'sse', frames, pace: { intervalMs: 1 } } satisfies Reply);
  const overheads: number[] = [];
  await drain(stream, undefined, (e) => {
    if (e.type === 'text_delta') overheads.push((performance.now() - Number(e.delta)) * 1000);
  });
  const sorted = overheads.slice(warmup).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length };
}

/**
 * A script for a 100-turn tool-calling run: each turn reads a file, the last one answers, and the confirm
 * call after a run that used tools hears "done". Sums the server's own time per request.
 */
function hundredTurnScript(firstIndex: number) {
  const serverMs: number[] = [];
  const script = (request: { index: number; outcome: Promise<unknown> }): Reply => {
    const t0 = performance.now();
    void request.outcome.then(() => serverMs.push(performance.now() - t0));
    // The server counts every request it ever got; turns count from this script's first.
    const turn = request.index - firstIndex;
    if (turn >= TURNS) return openAiStream({ text: 'done', usage: { input: 100, output: 1 } });
    if (turn === TURNS - 1) return openAiStream({ text: ['All ', 'done.'], usage: { input: 100, output: 2 } });
    // Each turn reads other lines: the agent's loop detection rightly stops identical calls.
    const args = { path: 'package.json', offset: 1 + (turn % 20), limit: 5 + Math.floor(turn / 20) };
    return openAiStream({
      text: `Turn ${turn}: reading.`,
      toolCalls: [{ id: `call_${turn}`, name: 'read', arguments: args }],
      usage: { input: 100, output: 20 },
    });
  };
  return { script, serverMs: () => serverMs.reduce((a, b) => a + b, 0) };
}

interface RunSample {
  ms: number;
  serverMs: number;
  cpuMs: number;
  /** Messages between main and the plugin processes during the run, for an app started with `countingLauncher`. */
  messages?: PipeCounts;
  /** The floor's conversation at its last request. */
  conversation?: readonly Message[];
  /** CPU time of this process alone during the run (the plugin path's share in main, server included). */
  mainCpuMs?: number;
}

interface PipeCounts {
  toPlugins: number;
  fromPlugins: number;
}

/** The launcher's processes, with every message main sends them and every one they send main counted in `counts`. */
function countingLauncher(base: PluginLauncher, counts: PipeCounts): PluginLauncher {
  return (request) => {
    const proc = base(request);
    const send = proc.send.bind(proc);
    const onMessage = proc.onMessage.bind(proc);
    proc.send = (message) => {
      counts.toPlugins++;
      return send(message);
    };
    proc.onMessage = (listener) =>
      onMessage((frame) => {
        counts.fromPlugins++;
        listener(frame);
      });
    return proc;
  };
}

const pipeCounts = new WeakMap<App, PipeCounts>();

/** CPU milliseconds (user + system) used so far by this process and by the processes `pids` names. */
function cpuMs(pids: readonly number[] = []): number {
  const own = process.cpuUsage();
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name: state is the 3rd field, utime the 14th and stime the 15th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // A process that is gone used nothing more.
    }
  }
  return (own.user + own.system) / 1000 + ticks * 10; // the kernel counts 100 ticks a second here
}

const cpuOf = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/** Each plugin process once: plugins that share a host process report the same pid. */
const pluginPids = (app: App): number[] => [...new Set(app.plugins.list().flatMap((p) => (p.pid ? [p.pid] : [])))];

/** The agent's system prompt and tool list, as its request `index` sent them (OpenAI-compatible form). */
function agentRequestParts(server: ProviderServer, index: number): RequestParts {
  const body = server.requests[index]?.body as
    | { messages?: { role: string; content: unknown }[]; tools?: { function: { name: string; description: string; parameters: Record<string, unknown> } }[] }
    | undefined;
  const system = body?.messages?.[0];
  if (!body?.tools || system?.role !== 'system' || typeof system.content !== 'string') throw new Error('The agent request carries no system prompt or tools.');
  const tools = body.tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters, readOnly: true }));
  return deepFreeze({ systemPrompt: system.content, tools, freeze: true });
}

/**
 * The bare loop: stream a turn, run its tool call with `execute`, send the result back; then the confirm
 * call. `pids`: the plugin processes whose CPU time counts too.
 */
async function bareLoop(
  server: ProviderServer,
  stream: StreamFn,
  execute: (call: { name: string; arguments: unknown }) => Promise<ToolOutput>,
  parts: RequestParts,
  pids: readonly number[] = [],
): Promise<RunSample> {
  const first = server.requests.length;
  const { script, serverMs } = hundredTurnScript(first);
  server.setScript(script);
  const kept = <T>(value: T): T => (parts.freeze ? deepFreeze(value) : value);
  const messages: Message[] = [kept({ role: 'user', content: 'read package.json a hundred times' })];
  const cpu0 = cpuMs(pids);
  const main0 = process.cpuUsage();
  const t0 = performance.now();
  for (let turn = 0; turn < TURNS; turn++) {
    const { message } = await drain(stream, messages, undefined, parts);
    messages.push(kept(message));
    for (const c of message.content) {
      if (c.type !== 'toolCall') continue;
      const out = await execute(c);
      if (out.isError) throw new Error(`The read tool failed: ${JSON.stringify(out.content)}`);
      messages.push(kept({ role: 'toolResult', toolCallId: c.id, toolName: c.name, content: out.content, isError: out.isError }));
    }
  }
  await drain(stream, [...messages, kept({ role: 'user', content: 'Is the task finished?' })], undefined, parts);
  const ms = performance.now() - t0;
  const cpu = cpuMs(pids) - cpu0;
  const mainCpuMs = cpuOf(process.cpuUsage(main0));
  await server.nextRequest(server.requests.length - 1).then((r) => r.outcome);
  if (server.requests.length - first !== TURNS + 1) throw new Error(`The loop made ${server.requests.length - first} requests, not ${TURNS + 1}.`);
  return { ms, serverMs: serverMs(), cpuMs: cpu, mainCpuMs, conversation: messages };
}

/** The floor: the bare loop with the dialect and the read tool in this process. */
function floorRun(server: ProviderServer, stream: StreamFn, workspace: string, parts: RequestParts = NO_PROMPT): Promise<RunSample> {
  return bareLoop(server, stream, (c) => readTool.execute(c.arguments, { root: workspace }), parts);
}

/**
 * The floor's loop with no agent, but its provider and read tool in the plugin processes of `app`, called
 * through the app's registries as the agent calls them: what the process split costs without the engine.
 */
function floorViaPluginsRun(server: ProviderServer, app: App, workspace: string, parts: RequestParts): Promise<RunSample> {
  const stream = app.plugins.registries.providers.stream('custom');
  if (!stream) throw new Error('The provider plugin is not ready.');
  const tools = app.plugins.registries.tools;
  const execute = (c: { name: string; arguments: unknown }) =>
    tools.execute(c.name, c.arguments, undefined, { sessionId: 'bench-floor', workspace, denied: [] });
  return bareLoop(server, stream, execute, { ...parts, freeze: true }, pluginPids(app));
}

/** One prompt on a fresh session of `app` until the run settles: 100 turns and the confirm call. */
async function agentRun(server: ProviderServer, app: App, workspace: string): Promise<RunSample> {
  const first = server.requests.length;
  const { script, serverMs } = hundredTurnScript(first);
  server.setScript(script);
  const session = app.sessions.create({ title: 'bench', cwd: workspace });
  const model = app.defaultModel();
  const pids = pluginPids(app);
  const counts = pipeCounts.get(app);
  const before = counts ? { ...counts } : null;
  const cpu0 = cpuMs(pids);
  const main0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await app.agent.prompt(session.id, 'read package.json a hundred times', model ? { model } : {});
  const ms = performance.now() - t0;
  const cpu = cpuMs(pids) - cpu0;
  const messages = counts && before ? { toPlugins: counts.toPlugins - before.toPlugins, fromPlugins: counts.fromPlugins - before.fromPlugins } : undefined;
  const requests = server.requests.length - first;
  if (result.reason !== 'stop' || requests !== TURNS + 1)
    throw new Error(`The 100-turn run ended after ${requests} requests: ${result.reason} ${result.error ?? ''}`);
  await server.nextRequest(server.requests.length - 1).then((r) => r.outcome);
  return { ms, serverMs: serverMs(), cpuMs: cpu, mainCpuMs: cpuOf(process.cpuUsage(main0)), ...(messages ? { messages } : {}) };
}

/** Microseconds one call of `make` takes, median of 9 rounds of 50. */
function timeUs(make: () => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round < 9; round++) {
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) make();
    rounds.push(((performance.now() - t0) / 50) * 1000);
  }
  return median(rounds);
}

/**
 * The last request of a 100-turn run (`conversation`, frozen, with the agent's system prompt and tools) made
 * into its body two ways in this process, µs, median of 9 rounds of 50: from the kept bytes of each message
 * (what the provider's process does since this was measured) and by serialising the whole body, then
 * encoding it for the socket (what it did before).
 */
function measureRequestBody(
  parts: RequestParts,
  conversation: readonly Message[],
): { keptUs: number; wholeUs: number; bytes: number; anthropicKeptUs: number; anthropicWholeUs: number } {
  const request = deepFreeze({ model: MODEL, systemPrompt: parts.systemPrompt, messages: [...conversation], tools: [...parts.tools] });
  const preset = resolvePreset('custom');
  const encoder = new TextEncoder();
  const bytes = openAiRequestBytes(request, preset).length;
  const whole = timeUs(() => encoder.encode(JSON.stringify(openAiRequestBody(request, preset))));
  const kept = timeUs(() => openAiRequestBytes(request, preset));
  // The same request in the Anthropic dialect.
  anthropicRequestBytes(request);
  const anthropicWhole = timeUs(() => encoder.encode(JSON.stringify(anthropicRequestBody(request))));
  const anthropicKept = timeUs(() => anthropicRequestBytes(request));
  return { keptUs: kept, wholeUs: whole, bytes, anthropicKeptUs: anthropicKept, anthropicWholeUs: anthropicWhole };
}

/**
 * The user's path of git revision `rev` beside this revision's, in one process: each a whole core with its
 * plugins on and its own plugin processes, runs alternating (which goes first alternates too).
 */
async function againstBaseline(rev: string, dir: string, server: ProviderServer, home: string, workspace: string, apps: App[]) {
  const root = baselineAt(rev, dir);
  const baseCore = (await import(join(root, 'src/main/app.ts'))) as { createApp: typeof createApp };
  const basePlugins = (await import(join(root, 'src/main/plugins/index.ts'))) as { createForkLauncher: typeof createForkLauncher };
  const current = createApp({ dataDir: join(dir, 'pair-current'), home, workspace, launchPlugin: createForkLauncher() });
  const old = baseCore.createApp({ dataDir: join(dir, 'pair-baseline'), home, workspace, launchPlugin: basePlugins.createForkLauncher() });
  apps.push(current, old);
  for (const app of [current, old]) {
    app.providers.save({ presetId: 'custom', baseUrl: `${server.url}/v1`, model: MODEL.id });
    // The tool's plugin starts when the first run calls it.
    await until(app, () => app.plugins.registries.providers.get('custom') !== undefined, 'the provider');
  }
  for (let i = 0; i < 5; i++) for (const app of [current, old]) await agentRun(server, app, workspace);
  const sides = new Map<App, { ms: number[]; main: number[]; plugins: number[] }>([
    [current, { ms: [], main: [], plugins: [] }],
    [old, { ms: [], main: [], plugins: [] }],
  ]);
  const pairs = Number(process.env.BENCH_STREAM_PAIRS ?? 15);
  for (let i = 0; i < pairs; i++) {
    for (const app of i % 2 ? [current, old] : [old, current]) {
      const side = sides.get(app)!;
      const sample = await agentRun(server, app, workspace);
      side.ms.push(sample.ms);
      side.main.push(sample.mainCpuMs ?? 0);
      side.plugins.push(sample.cpuMs - (sample.mainCpuMs ?? 0));
    }
  }
  const of = (app: App) => sides.get(app)!;
  const result = {
    rev,
    pairs,
    agent_plugin_run100_ms: Math.round(median(of(old).ms)),
    current_agent_plugin_run100_ms: Math.round(median(of(current).ms)),
    current_over_baseline: Math.round(median(of(current).ms.map((ms, i) => ms / of(old).ms[i]!)) * 1000) / 1000,
    main_cpu_ms: Math.round(median(of(old).main)),
    current_main_cpu_ms: Math.round(median(of(current).main)),
    plugins_cpu_ms: Math.round(median(of(old).plugins)),
    current_plugins_cpu_ms: Math.round(median(of(current).plugins)),
  };
  console.log(`baseline ${rev}: ${JSON.stringify(result)}`);
  return result;
}

/** Resolves once `ready()` holds, checked on every change of the app's provider and tool registries. */
function until(app: App, ready: () => boolean, what: string): Promise<void> {
  const { providers, tools } = app.plugins.registries;
  return new Promise((resolvePromise, reject) => {
    const subs = [providers.onDidChange(check), tools.onDidChange(check), app.plugins.onDidChange(check)];
    const timer = setTimeout(() => done(new Error(`Timed out waiting for ${what}.`)), 30_000);
    function done(error?: Error): void {
      clearTimeout(timer);
      for (const s of subs) s.dispose();
      if (error) reject(error);
      else resolvePromise();
    }
    function check(): void {
      if (ready()) done();
    }
    check();
  });
}

type Row = { what: string; run: () => Promise<RunSample> };

const perTurn = (counts: PipeCounts | null) =>
  counts ? { to: Math.round((counts.toPlugins / TURNS) * 10) / 10, from: Math.round((counts.fromPlugins / TURNS) * 10) / 10 } : null;

/**
 * Samples each row RUNS times after WARMUPS rounds of warm-up runs, row after row within a round, so every row sees the
 * same machine; returns each row's medians.
 */
async function sampleInterleaved(
  rows: Row[],
): Promise<{ ms: number; serverMs: number; cpuMs: number; mainCpuMs: number | null; messages: PipeCounts | null }[]> {
  for (let i = 0; i < WARMUPS; i++) for (const row of rows) await row.run();
  const samples: RunSample[][] = rows.map(() => []);
  for (let i = 0; i < RUNS; i++) for (const [r, row] of rows.entries()) samples[r]!.push(await row.run());
  return rows.map((row, r) => {
    const all = samples[r]!;
    const counted = all.flatMap((s) => (s.messages ? [s.messages] : []));
    const messages = counted.length ? { toPlugins: median(counted.map((c) => c.toPlugins)), fromPlugins: median(counted.map((c) => c.fromPlugins)) } : null;
    const mains = all.flatMap((s) => (s.mainCpuMs === undefined ? [] : [s.mainCpuMs]));
    const result = {
      ms: median(all.map((s) => s.ms)),
      serverMs: median(all.map((s) => s.serverMs)),
      cpuMs: median(all.map((s) => s.cpuMs)),
      mainCpuMs: mains.length ? median(mains) : null,
      messages,
    };
    console.log(
      `${row.what}: median ${result.ms.toFixed(0)} ms, CPU ${result.cpuMs.toFixed(0)} ms (server ${result.serverMs.toFixed(0)} ms) over ${RUNS} runs [${all.map((s) => Math.round(s.ms)).join(', ')}]${messages ? `; ${messages.toPlugins} messages to plugin processes, ${messages.fromPlugins} from them` : ''}`,
    );
    return result;
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'amber-stream-bench-'));
  const home = join(dir, 'home');
  const workspace = join(home, 'ws');
  mkdirSync(workspace, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(workspace, 'package.json'));
  const server = await startProviderServer();
  const apps: App[] = [];
  const newApp = (name: string, extra: Partial<AppOptions>): App => {
    const app = createApp({ dataDir: join(dir, name), home, workspace, ...extra });
    apps.push(app);
    return app;
  };
  /** An app whose plugin processes' messages are counted (see countingLauncher). */
  const newCountedApp = (name: string, base: PluginLauncher): App => {
    const counts = { toPlugins: 0, fromPlugins: 0 };
    const app = newApp(name, { launchPlugin: countingLauncher(base, counts) });
    pipeCounts.set(app, counts);
    return app;
  };
  try {
    const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, flavor: 'custom' });
    server.setScript(openAiStream({ text: 'warm' }));
    await drain(stream);
    const eventsPerSecond = await measureEventsPerSecond(server, stream);
    console.log(`events/s: ${Math.round(eventsPerSecond)} (${EVENTS} text deltas, median of 5)`);
    const overhead = await measureChunkOverhead(server, stream);
    console.log(`chunk overhead: p50 ${overhead.p50.toFixed(0)} µs, p99 ${overhead.p99.toFixed(0)} µs (${overhead.samples} paced chunks)`);

    // The in-process agent: the same core, with the dialect and the read tool handed in.
    const inproc = newApp('inproc', {
      startPlugins: false,
      defaultModel: { provider: 'bench', modelId: MODEL.id },
      resolveProvider: () => ({ stream, model: MODEL }),
      tools: {
        list: () => [readTool.spec],
        execute: (_name, args, execution) => readTool.execute(args, { root: execution.workspaceRoot, signal: execution.signal }),
      },
    });
    // The user's path: the bundled plugins on, the provider account pointing at the loopback server.
    const profileDir = process.env.AMBER_BENCH_PROFILE_DIR;
    const plugged = newCountedApp(
      'plugins',
      createForkLauncher(profileDir ? { execArgv: [...DEFAULT_EXEC_ARGV, '--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
    );
    plugged.providers.save({ presetId: 'custom', baseUrl: `${server.url}/v1`, model: MODEL.id });
    await until(
      plugged,
      () => plugged.plugins.registries.providers.get('custom') !== undefined && plugged.plugins.registries.tools.get('read') !== undefined,
      'the provider and the read tool',
    );

    // The three rows interleave sample by sample, so each sees the same machine.
    // The same path with only the two plugins a turn needs: what the listening plugins add shows beside it.
    const bare = newCountedApp('plugins-bare', createForkLauncher());
    bare.providers.save({ presetId: 'custom', baseUrl: `${server.url}/v1`, model: MODEL.id });
    await until(
      bare,
      () => bare.plugins.registries.providers.get('custom') !== undefined && bare.plugins.registries.tools.get('read') !== undefined,
      'the provider and the read tool',
    );
    for (const p of bare.plugins.list()) if (p.id !== 'openai_compatible' && p.id !== 'workspace_tools' && p.enabled) await bare.plugins.setState(p.id, false);

    // The floor sends what the agent sends: its system prompt and tools, read from its first request.
    const firstAgentRequest = server.requests.length;
    await agentRun(server, plugged, workspace);
    const agentParts = agentRequestParts(server, firstAgentRequest);

    const [floor, floorNoPrompt, floorViaPlugins, agentInproc, agentPlugin, agentPluginBare] = await sampleInterleaved([
      { what: "floor: bare 100-turn loop in this process, the agent's system prompt and tools", run: () => floorRun(server, stream, workspace, agentParts) },
      { what: 'floor as before: no system prompt, the read tool alone', run: () => floorRun(server, stream, workspace) },
      {
        what: "the floor's loop with the provider and the read tool in the plugin processes",
        run: () => floorViaPluginsRun(server, bare, workspace, agentParts),
      },
      { what: 'agent 100-turn run, provider and tool in this process', run: () => agentRun(server, inproc, workspace) },
      { what: 'agent 100-turn run, provider and tool in plugin processes', run: () => agentRun(server, plugged, workspace) },
      { what: 'the same, only the provider and workspace-tools plugins on', run: () => agentRun(server, bare, workspace) },
    ]);
    const baselineRev = process.env.AMBER_BENCH_BASELINE;
    const baseline = baselineRev ? await againstBaseline(baselineRev, dir, server, home, workspace, apps) : null;
    const lastFloor = await floorRun(server, stream, workspace, agentParts);
    const body = measureRequestBody(agentParts, lastFloor.conversation ?? []);
    console.log(
      `the 100th turn's request (${body.bytes} bytes): ${body.keptUs.toFixed(0)} µs from kept bytes, ${body.wholeUs.toFixed(0)} µs serialised whole; Anthropic ${body.anthropicKeptUs.toFixed(0)} and ${body.anthropicWholeUs.toFixed(0)} µs`,
    );
    console.log(
      `plugin path / floor: ${(agentPlugin.ms / floor.ms).toFixed(2)}×; engine per turn over the floor: ${((agentInproc.ms - floor.ms) / TURNS).toFixed(2)} ms`,
    );
    console.log(
      JSON.stringify({
        events_per_s_p50: Math.round(eventsPerSecond),
        chunk_overhead_p50_us: Math.round(overhead.p50),
        chunk_overhead_p99_us: Math.round(overhead.p99),
        request_body_kept_us: Math.round(body.keptUs),
        request_body_whole_us: Math.round(body.wholeUs),
        request_body_bytes: body.bytes,
        anthropic_request_body_kept_us: Math.round(body.anthropicKeptUs),
        anthropic_request_body_whole_us: Math.round(body.anthropicWholeUs),
        floor_run100_ms: Math.round(floor.ms),
        floor_run100_server_ms: Math.round(floor.serverMs),
        floor_run100_cpu_ms: Math.round(floor.cpuMs),
        floor_no_prompt_run100_ms: Math.round(floorNoPrompt!.ms),
        floor_via_plugins_run100_ms: Math.round(floorViaPlugins!.ms),
        floor_via_plugins_run100_cpu_ms: Math.round(floorViaPlugins!.cpuMs),
        floor_via_plugins_run100_main_cpu_ms: Math.round(floorViaPlugins!.mainCpuMs ?? 0),
        floor_no_prompt_run100_cpu_ms: Math.round(floorNoPrompt!.cpuMs),
        agent_inproc_run100_ms: Math.round(agentInproc.ms),
        agent_inproc_run100_server_ms: Math.round(agentInproc.serverMs),
        agent_inproc_run100_cpu_ms: Math.round(agentInproc.cpuMs),
        agent_plugin_run100_ms: Math.round(agentPlugin.ms),
        agent_plugin_run100_server_ms: Math.round(agentPlugin.serverMs),
        agent_plugin_run100_cpu_ms: Math.round(agentPlugin.cpuMs),
        agent_plugin_run100_main_cpu_ms: Math.round(agentPlugin.mainCpuMs ?? 0),
        agent_plugin_bare_run100_ms: Math.round(agentPluginBare!.ms),
        agent_plugin_bare_run100_cpu_ms: Math.round(agentPluginBare!.cpuMs),
        plugin_over_floor: Math.round((agentPlugin.ms / floor.ms) * 100) / 100,
        inproc_over_floor: Math.round((agentInproc!.ms / floor.ms) * 100) / 100,
        via_plugins_over_floor: Math.round((floorViaPlugins!.ms / floor.ms) * 100) / 100,
        plugin_over_floor_cpu: Math.round((agentPlugin.cpuMs / floor.cpuMs) * 100) / 100,
        plugin_over_floor_no_prompt: Math.round((agentPlugin.ms / floorNoPrompt!.ms) * 100) / 100,
        plugin_over_floor_no_prompt_cpu: Math.round((agentPlugin.cpuMs / floorNoPrompt!.cpuMs) * 100) / 100,
        agent_plugin_messages_per_turn: perTurn(agentPlugin.messages),
        agent_plugin_bare_messages_per_turn: perTurn(agentPluginBare!.messages),
        runs: RUNS,
        events: EVENTS,
        samples: overhead.samples,
        ...(baseline ? { baseline } : {}),
        node: process.versions.node,
      }),
    );
  } finally {
    for (const app of apps) await app.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
