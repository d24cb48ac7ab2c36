// `npm run bench -- compaction [sessions] [turns]`: what layer 1 of context compression (no model call: old tool
// output masked, repeated reads and loops collapsed; see src/main/agent/tool-output-masking.ts) saves on
// generated long sessions with tool output, stored in a real SQLite file in a temp folder. Each session is
// `turns` tool turns (default 20 sessions of 150 turns) of reads (files re-read, some unchanged), searches,
// commands and a loop now and then; a request is built before every model call, with the default settings.
//   raw_tokens        — estimated tokens of every request's messages as stored (what was sent before layer 1);
//   sent_tokens       — the same requests after layer 1;  sent_share — sent / raw;
//   dedupe_only_share — sent / raw with masking off (maskAfterTokens 0): repeats and loops only;
//   prefix_unchanged  — of each request's bytes, the share that starts the next request unchanged (the
//                       provider's prompt cache), weighted by size; raw requests only grow, so theirs is 1;
//   masked, repeats, loop_pairs — in the last request of each session, summed;
//   mask_p50_ms, mask_max_ms — the time layer 1 takes per request.
// Then layer 2 (classify + extract) against the summary pass on the same number of generated sessions with 12
// probe facts each, a 64,000-token window and layer 1 on both (see bench-layers.ts); medians over the sessions:
//   layered / summary.sent_share  — tokens sent / raw tokens, over every model call (compaction requests apart:
//                                   .with_compaction adds their input);
//   .accuracy                     — probes answered from the last request; .after_first, .after_third — from the
//                                   request right after the 1st and the 3rd compaction; .third_vs_first — their ratio;
//   .compactions                  — per session;  layered.extract_prefix — of each extract request's bytes, the
//                                   share that repeats the classify request's (what the prompt cache serves);
//   .prefix_unchanged             — as for layer 1, over the turn requests;  layered.fallbacks — layered compactions
//                                   that fell back to the summary pass, summed.
// The last line is one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_MASKING, maskToolOutput, type MaskingSettings } from '../src/main/agent/index.ts';
import { SessionStore } from '../src/main/sessions/index.ts';
import type { Message } from '../src/shared/sessions/index.ts';
import { generateSession, type Replay, replay } from './bench-layers.ts';
import { seededRandom as random } from '../tests/fixtures/seeded-random.ts';

const sessions = Number(process.argv[2] ?? 20);
const turns = Number(process.argv[3] ?? 150);
const dir = mkdtempSync(join(tmpdir(), 'amber-compaction-bench-'));
const store = SessionStore.open(join(dir, 'amber.db'));
const round = (n: number, d = 3) => Number(n.toFixed(d));
const tokens = (messages: readonly Message[]) => messages.reduce((sum, m) => sum + Math.ceil(JSON.stringify(m).length / 4), 0);

const lines = (prefix: string, chars: number) => {
  let text = '';
  for (let i = 1; text.length < chars; i++) text += `${prefix} ${i}: const value${i} = compute(${i}, options);\n`;
  return text;
};

/** Appends one generated session; calls `onRequest` with its context before every model call. */
function generate(seed: number, onRequest: (sessionId: string) => void): string {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const id = store.create({ title: `bench ${seed}`, cwd: dir }).id;
  const files = Array.from({ length: 30 }, (_, i) => ({ path: `src/module-${i}.ts`, version: 0, chars: 2000 + Math.floor(rnd() * 10_000) }));
  let call = 0;
  const toolTurn = (name: string, args: Record<string, unknown>, output: string) => {
    const callId = `call_${++call}`;
    store.append(id, {
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: `Next I ${name} ${JSON.stringify(args)} to see what it does.` },
          { type: 'toolCall', id: callId, name, arguments: args },
        ],
        stopReason: 'toolUse',
      },
    });
    store.append(id, {
      type: 'message',
      message: { role: 'toolResult', toolCallId: callId, toolName: name, content: [{ type: 'text', text: output }], isError: false },
    });
  };
  store.append(id, { type: 'message', message: { role: 'user', content: 'Refactor the modules so the options are read once, and keep the tests green.' } });
  for (let t = 0; t < turns; t++) {
    onRequest(id);
    const roll = rnd();
    if (t > 0 && t % 25 === 0) {
      store.append(id, { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `Done with part ${t / 25}.` }], stopReason: 'stop' } });
      store.append(id, { type: 'message', message: { role: 'user', content: `Good. Now part ${t / 25 + 1}: carry on with the next modules.` } });
    } else if (roll < 0.45) {
      const file = pick(files);
      toolTurn('read', { path: file.path }, lines(`${file.path} v${file.version}`, file.chars));
    } else if (roll < 0.6) {
      const file = pick(files);
      file.version++;
      toolTurn('edit', { path: file.path, oldText: 'compute(1', newText: 'compute(one' }, `Edited ${file.path}: 1 replacement.`);
    } else if (roll < 0.75) {
      toolTurn('grep', { pattern: `value${Math.floor(rnd() * 50)}` }, lines('match', 500 + Math.floor(rnd() * 3000)));
    } else if (roll < 0.95) {
      toolTurn('bash', { command: pick(['npm test', 'npm run build', 'git status', 'ls -R src']) }, lines(`out ${t}`, 300 + Math.floor(rnd() * 6000)));
    } else {
      const times = 3 + Math.floor(rnd() * 3);
      for (let k = 0; k < times; k++)
        toolTurn('bash', { command: 'npm run typecheck' }, 'error TS2345: Argument of type string is not assignable to parameter of type number.');
    }
  }
  onRequest(id);
  return id;
}

/** Bytes of `previous` that start `next` unchanged, counted by whole messages. */
function unchangedPrefix(previous: string[], next: string[]): number {
  let bytes = 0;
  for (let i = 0; i < previous.length && i < next.length && previous[i] === next[i]; i++) bytes += previous[i]!.length;
  return bytes;
}

const off: MaskingSettings = { maskAfterTokens: 0, maskBatchTokens: DEFAULT_MASKING.maskBatchTokens };
try {
  let raw = 0;
  let sent = 0;
  let dedupeOnly = 0;
  let prefixKept = 0;
  let prefixTotal = 0;
  let masked = 0;
  let repeats = 0;
  let loopPairs = 0;
  let requests = 0;
  const times: number[] = [];
  for (let s = 0; s < sessions; s++) {
    let previous: string[] | null = null;
    let last: ReturnType<typeof maskToolOutput> | null = null;
    generate(1000 + s, (sessionId) => {
      const context = store.context(sessionId);
      const start = performance.now();
      const request = maskToolOutput(context, DEFAULT_MASKING);
      times.push(performance.now() - start);
      requests++;
      raw += tokens(context.messages);
      sent += tokens(request.messages);
      dedupeOnly += tokens(maskToolOutput(context, off).messages);
      const bytes = request.messages.map((m) => JSON.stringify(m));
      if (previous) {
        prefixKept += unchangedPrefix(previous, bytes);
        prefixTotal += previous.reduce((sum, b) => sum + b.length, 0);
      }
      previous = bytes;
      last = request;
    });
    const final = last as ReturnType<typeof maskToolOutput> | null;
    masked += final?.masked ?? 0;
    repeats += final?.repeats ?? 0;
    loopPairs += final?.loopPairs ?? 0;
  }
  times.sort((a, b) => a - b);
  const median = (xs: readonly number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted.length === 0 ? null : round(sorted[Math.floor(sorted.length / 2)]!);
  };
  const layers: Record<'layered' | 'summary', Replay[]> = { layered: [], summary: [] };
  for (let s = 0; s < sessions; s++) {
    const session = generateSession(2000 + s, turns);
    for (const strategy of ['layered', 'summary'] as const) layers[strategy].push(await replay(store, dir, session, strategy));
  }
  const figures = (runs: Replay[]) => ({
    sent_share: median(runs.map((r) => r.sent / r.raw)),
    sent_share_with_compaction: median(runs.map((r) => (r.sent + r.compactionSent) / r.raw)),
    accuracy: median(runs.map((r) => r.final)),
    accuracy_mean: round(runs.reduce((sum, r) => sum + r.final, 0) / runs.length),
    after_first: median(runs.flatMap((r) => (r.afterFirst === null ? [] : [r.afterFirst]))),
    after_third: median(runs.flatMap((r) => (r.afterThird === null ? [] : [r.afterThird]))),
    third_vs_first: median(runs.flatMap((r) => (r.afterThird === null || !r.afterFirst ? [] : [r.afterThird / r.afterFirst]))),
    compactions: median(runs.map((r) => r.compactions)),
    prefix_unchanged: median(runs.map((r) => r.prefixKept / r.prefixTotal)),
  });
  console.log(
    JSON.stringify({
      sessions,
      turns,
      requests,
      raw_tokens: raw,
      sent_tokens: sent,
      sent_share: round(sent / raw),
      dedupe_only_share: round(dedupeOnly / raw),
      prefix_unchanged: round(prefixKept / prefixTotal),
      masked,
      repeats,
      loop_pairs: loopPairs,
      mask_p50_ms: round(times[Math.floor(times.length / 2)]!),
      mask_max_ms: round(times[times.length - 1]!),
      layered: {
        ...figures(layers.layered),
        extract_prefix: median(layers.layered.flatMap((r) => r.extractPrefix)),
        fallbacks: layers.layered.reduce((sum, r) => sum + r.fallbacks, 0),
      },
      summary: figures(layers.summary),
    }),
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
