// Provider streaming benchmark: `npm run bench:stream`. Prints progress lines, then one JSON object on the
// last line. Everything runs against the loopback provider server; nothing leaves the machine.
//
//   events_per_s            events decoded (SSE → JSON → ProviderEvent) and dispatched per second, unpaced
//   chunk_overhead_p50/99_us per-chunk latency from the server's socket write to the event reaching the
//                           consumer, with chunks paced so each arrives on its own
//   run100_ms / run100_server_ms  a 100-turn tool-calling run through the agent loop (store, policy, tools),
//                           total beside the server's own time
//   dialect_loop100_ms / dialect_loop100_server_ms  the same 100 turns driven by a bare loop (stream → run
//                           the tool → next request), no agent: a floor for run100_ms
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentService, DEFAULT_COMPACTION } from '../src/main/agent/index.ts';
import { SessionStore } from '../src/main/sessions/index.ts';
import { createOpenAiCompatibleStream } from '../src/plugins/openai-compatible/index.ts';
import { readTool } from '../src/plugins/workspace-tools/index.ts';
import type { ModelInfo, ProviderEvent, StreamFn } from '../src/shared/providers/index.ts';
import type { Message } from '../src/shared/sessions/index.ts';
import { openAiStream, startProviderServer, type ProviderServer, type Reply, type SseFrame } from '../tests/fixtures/provider-server.ts';

const MODEL: ModelInfo = { id: 'bench-model', contextWindow: 128_000, reasoning: false, pricing: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } };
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_STREAM_SAMPLES ?? 1000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function drain(stream: StreamFn, messages: Message[] = [{ role: 'user', content: 'go' }], onEvent?: (e: ProviderEvent) => void): Promise<Extract<ProviderEvent, { type: 'done' | 'error' }>> {
  let final: ProviderEvent | undefined;
  for await (const e of stream({ model: MODEL, systemPrompt: '', messages, tools: [readTool.spec] }, new AbortController().signal)) {
    onEvent?.(e);
    final = e;
  }
  if (!final || (final.type !== 'done' && final.type !== 'error')) throw new Error('stream ended without a final event');
  if (final.type === 'error') throw new Error(`stream failed: ${final.message.errorMessage}`);
  return final;
}

/** Unpaced: a long reply of small text deltas, as fast as the loopback socket carries them. */
async function measureEventsPerSecond(server: ProviderServer, stream: StreamFn): Promise<number> {
  const tokens = Array.from({ length: EVENTS }, (_, i) => `tok${i % 10} `);
  let best = 0;
  for (let round = 0; round < 3; round++) {
    server.setScript(openAiStream({ text: tokens, usage: { input: 10, output: EVENTS } }));
    let count = 0;
    const t0 = performance.now();
    await drain(stream, undefined, () => count++);
    const rate = count / ((performance.now() - t0) / 1000);
    best = Math.max(best, rate);
  }
  return best;
}

/** A frame built at write time whose text is the write time. */
const stamped: SseFrame = () => ({ data: { choices: [{ index: 0, delta: { content: `${performance.now()}` } }] } });

/** Paced: each chunk carries its write time; the consumer subtracts it from the time the event reached it. */
async function measureChunkOverhead(server: ProviderServer, stream: StreamFn): Promise<{ p50: number; p99: number; samples: number }> {
  const warmup = 50;
  const frames: SseFrame[] = [...Array.from({ length: SAMPLES + warmup }, () => stamped), { data: { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } }, 'data: [DONE]\n\n'];
  server.setScript({ kind: 'sse', frames, pace: { intervalMs: 1 } } satisfies Reply);
  const overheads: number[] = [];
  await drain(stream, undefined, (e) => {
    if (e.type === 'text_delta') overheads.push((performance.now() - Number(e.delta)) * 1000);
  });
  const sorted = overheads.slice(warmup).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length };
}

/** A script for a 100-turn tool-calling run: each turn reads a file, the last one answers. Times the server. */
function hundredTurnScript(turns: number, firstIndex: number) {
  const serverMs: number[] = [];
  const script = (request: { index: number; outcome: Promise<unknown> }): Reply => {
    const t0 = performance.now();
    void request.outcome.then(() => serverMs.push(performance.now() - t0));
    // The server counts every request it ever got; turns count from this script's first.
    const req = { index: request.index - firstIndex };
    if (req.index >= turns - 1) return openAiStream({ text: ['All ', 'done.'], usage: { input: 100, output: 2 } });
    // Each turn reads other lines: the agent's loop detection rightly stops identical calls.
    const args = { path: 'package.json', offset: 1 + (req.index % 20), limit: 5 + Math.floor(req.index / 20) };
    return openAiStream({ text: `Turn ${req.index}: reading.`, toolCalls: [{ id: `call_${req.index}`, name: 'read', arguments: args }], usage: { input: 100, output: 20 } });
  };
  return { script, serverMs };
}

/** The bare loop: stream a turn, run its tool call, send the result back; no agent, store or policy. */
async function measureDialectLoop100(server: ProviderServer, stream: StreamFn): Promise<{ totalMs: number; serverMs: number }> {
  const { script, serverMs } = hundredTurnScript(100, server.requests.length);
  server.setScript(script);
  const messages: Message[] = [{ role: 'user', content: 'read package.json a hundred times' }];
  const t0 = performance.now();
  for (let turn = 0; turn < 100; turn++) {
    const { message } = await drain(stream, messages);
    messages.push(message);
    for (const c of message.content) {
      if (c.type !== 'toolCall') continue;
      const out = await readTool.execute(c.arguments, { root: process.cwd() });
      messages.push({ role: 'toolResult', toolCallId: c.id, toolName: c.name, content: out.content, isError: out.isError });
    }
  }
  const totalMs = performance.now() - t0;
  await server.nextRequest(server.requests.length - 1).then((r) => r.outcome);
  return { totalMs, serverMs: serverMs.reduce((a, b) => a + b, 0) };
}

/**
 * A 100-turn tool-calling run through the real agent loop: the session store on a temp SQLite file, the
 * OpenAI-compatible dialect against `server`, the read tool, one prompt, until the run settles. Returns the
 * run's wall time beside the sum of the server's own times.
 */
async function measureAgentRun100(server: ProviderServer, stream: StreamFn): Promise<{ run100_ms: number; run100_server_ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'amber-stream-bench-'));
  const store = SessionStore.open(join(dir, 'amber.db'));
  const agent = new AgentService({
    store,
    resolveProvider: () => ({ stream, model: MODEL }),
    tools: {
      list: () => [readTool.spec],
      execute: (_name, args, execution) => readTool.execute(args, { root: process.cwd(), signal: execution.signal }),
    },
    maxIterations: 200,
    compaction: { ...DEFAULT_COMPACTION, enabled: false },
  });
  try {
    const first = server.requests.length;
    const { script, serverMs } = hundredTurnScript(100, first);
    server.setScript(script);
    const session = store.create({ title: 'bench' });
    store.append(session.id, { type: 'model_change', provider: 'bench', modelId: MODEL.id });
    const t0 = performance.now();
    const result = await agent.prompt(session.id, 'read package.json a hundred times');
    const run100 = performance.now() - t0;
    const turns = server.requests.length - first;
    if (result.reason !== 'stop' || turns !== 100) throw new Error(`the 100-turn run ended after ${turns} turns: ${result.reason} ${result.error ?? ''}`);
    await server.nextRequest(server.requests.length - 1).then((r) => r.outcome);
    return { run100_ms: Math.round(run100), run100_server_ms: Math.round(serverMs.reduce((a, b) => a + b, 0)) };
  } finally {
    await agent.dispose();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const server = await startProviderServer();
  try {
    const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, flavor: 'custom' });
    server.setScript(openAiStream({ text: 'warm' }));
    await drain(stream);
    const eventsPerSecond = await measureEventsPerSecond(server, stream);
    console.log(`events/s: ${Math.round(eventsPerSecond)} (${EVENTS} text deltas, best of 3)`);
    const overhead = await measureChunkOverhead(server, stream);
    console.log(`chunk overhead: p50 ${overhead.p50.toFixed(0)} µs, p99 ${overhead.p99.toFixed(0)} µs (${overhead.samples} paced chunks)`);
    const loop = await measureDialectLoop100(server, stream);
    console.log(`bare 100-turn loop: ${loop.totalMs.toFixed(0)} ms, server ${loop.serverMs.toFixed(0)} ms`);
    const agent = await measureAgentRun100(server, stream);
    console.log(`agent 100-turn run: ${agent.run100_ms} ms, server ${agent.run100_server_ms} ms`);
    console.log(
      JSON.stringify({
        events_per_s: Math.round(eventsPerSecond),
        chunk_overhead_p50_us: Math.round(overhead.p50),
        chunk_overhead_p99_us: Math.round(overhead.p99),
        ...agent,
        dialect_loop100_ms: Math.round(loop.totalMs),
        dialect_loop100_server_ms: Math.round(loop.serverMs),
        events: EVENTS,
        samples: overhead.samples,
        node: process.versions.node,
      }),
    );
  } finally {
    await server.close();
  }
}

await main();
