// Layer 2 of context compression against the summary pass, for `npm run bench -- compaction` (see
// compaction-bench.ts). Each generated session is replayed twice into a real SQLite file, once per strategy,
// with layer 1 on both; before every model call the context is compacted when what would be sent passes 80 % of
// the window. The model is scripted and can only work from what it is sent:
//   classify — by rules it can see in each message: a user message, an error, or a message naming an identifier
//              or a long number is core; a tool result over 1,500 characters without one is prune; else context;
//   extract  — the goal (the old summary's, else the first user message), the lines that say "decided" or
//              "Keep in mind" as decisions, the paths named, the last errors, the last user message as next step;
//   summary  — the goal, then the lines it was sent that name an identifier or a long number or say "decided"
//              or "Keep in mind", newest first, up to 4,096 characters of output;
//   probes   — a probe is answered when its answer's text is in the request (string match).
import { compactSession, DEFAULT_COMPACTION, DEFAULT_KEEP_SHARE, DEFAULT_MASKING, maskToolOutput } from '../src/main/agent/index.ts';
import type { SessionStore } from '../src/main/sessions/index.ts';
import type { ModelInfo, ProviderEvent, ProviderRequest, StreamFn } from '../src/shared/providers/index.ts';
import type { EntryInput, Message } from '../src/shared/sessions/index.ts';
import { seededRandom as random } from '../tests/fixtures/seeded-random.ts';

const WINDOW = 64_000;
const MODEL: ModelInfo = { id: 'bench', contextWindow: WINDOW, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const FACT = /\b[A-Z][A-Z0-9]*[-_][A-Z0-9_-]*\d{3,}\b|\b\d{5,}\b/;
const SUMMARY_CHARS = 4096;
const tokens = (messages: readonly Message[]) => messages.reduce((sum, m) => sum + Math.ceil(JSON.stringify(m).length / 4), 0);

export interface Probe {
  answer: string;
  /** The turn after which the fact is in the history. */
  turn: number;
}

export interface BenchSession {
  turns: EntryInput[][];
  probes: Probe[];
}

const code = (chars: string, n: number) => `${chars}-${n}`;

const codeLines = (prefix: string, chars: number) => {
  let text = '';
  for (let i = 1; text.length < chars; i++) text += `${prefix} ${i}: const value${i} = compute(${i}, options);\n`;
  return text;
};

/** One session of `turns` turns (reads, edits, searches, commands) with 12 facts hidden in it, each the answer of a probe. */
export function generateSession(seed: number, turns: number): BenchSession {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const files = Array.from({ length: 30 }, (_, i) => ({ path: `src/module-${i}.ts`, chars: 2000 + Math.floor(rnd() * 10_000) }));

  /** Puts `line` among the text's lines, in its first 1,800 characters or anywhere. */
  const hide = (text: string, line: string, early: boolean) => {
    const rows = text.split('\n');
    const at = early ? Math.min(rows.length - 1, Math.floor(rnd() * 30)) : Math.floor(rnd() * rows.length);
    rows.splice(at, 0, line);
    return rows.join('\n');
  };
  const factTurns = new Set<number>();
  while (factTurns.size < 12) factTurns.add(2 + Math.floor(rnd() * (turns - 4)));
  const probes: Probe[] = [];
  const out: EntryInput[][] = [
    [{ type: 'message', message: { role: 'user', content: 'Refactor the modules so the options are read once, and keep the tests green.' } }],
  ];
  let call = 0;
  for (let t = 0; t < turns; t++) {
    const turn: EntryInput[] = [];
    const tool = (name: string, args: Record<string, unknown>, output: string, says = `Next I ${name} ${JSON.stringify(args)} to see what it does.`) => {
      const id = `call_${++call}`;
      turn.push({
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: says },
            { type: 'toolCall', id, name, arguments: args },
          ],
          stopReason: 'toolUse',
        },
      });
      turn.push({
        type: 'message',
        message: { role: 'toolResult', toolCallId: id, toolName: name, content: [{ type: 'text', text: output }], isError: false },
      });
    };
    const fact = factTurns.has(t);
    const kind = fact ? probes.length % 4 : -1;
    const n = 10_000 + Math.floor(rnd() * 89_999);
    if (kind === 0) {
      const answer = `${n}`;
      turn.push({ type: 'message', message: { role: 'user', content: `Keep in mind: the staging port is ${answer}.` } });
      tool('read', { path: pick(files).path }, codeLines('ack', 400));
      probes.push({ answer, turn: t });
    } else if (kind === 1) {
      const answer = code('BUILD', n);
      tool(
        'bash',
        { command: 'npm run deploy' },
        hide(codeLines(`deploy ${t}`, 3000 + Math.floor(rnd() * 3000)), `deployed ${answer} to staging`, rnd() < 0.7),
      );
      probes.push({ answer, turn: t });
    } else if (kind === 2) {
      const answer = code('TEAM', n);
      const file = pick(files);
      tool('read', { path: file.path }, hide(codeLines(file.path, file.chars), `// owner: ${answer}`, rnd() < 0.7));
      probes.push({ answer, turn: t });
    } else if (kind === 3) {
      const answer = `CACHE_MODE_${n}`;
      tool(
        'edit',
        { path: pick(files).path, oldText: 'compute(1', newText: 'compute(one' },
        'Edited: 1 replacement.',
        `I decided to guard the cache with the flag ${answer}.`,
      );
      probes.push({ answer, turn: t });
    } else if (t > 0 && t % 25 === 0) {
      turn.push({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `Done with part ${t / 25}.` }], stopReason: 'stop' } });
      turn.push({ type: 'message', message: { role: 'user', content: `Good. Now part ${t / 25 + 1}: carry on with the next modules.` } });
    } else {
      const roll = rnd();
      if (roll < 0.45) {
        const file = pick(files);
        tool('read', { path: file.path }, codeLines(file.path, file.chars));
      } else if (roll < 0.6) tool('edit', { path: pick(files).path, oldText: 'compute(1', newText: 'compute(one' }, 'Edited: 1 replacement.');
      else if (roll < 0.75) tool('grep', { pattern: `value${Math.floor(rnd() * 50)}` }, codeLines('match', 500 + Math.floor(rnd() * 3000)));
      else tool('bash', { command: pick(['npm test', 'npm run build', 'git status']) }, codeLines(`out ${t}`, 300 + Math.floor(rnd() * 6000)));
    }
    out.push(turn);
  }
  return { turns: out, probes };
}

// ── the scripted model ──────────────────────────────────────────────────────

const textOfContent = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('\n') : '';

/** The `[mN] …` blocks of a classify or extract request's transcript. */
function blocks(request: ProviderRequest): { id: string; text: string }[] {
  const transcript = textOfContent(request.messages[0]?.content);
  const body = transcript.slice(transcript.indexOf('\n') + 1, transcript.lastIndexOf('</conversation>'));
  return body.split(/\n\n(?=\[m\d+\] )/).flatMap((b) => {
    const m = /^\[(m\d+)\] ([\s\S]*)$/.exec(b.trim());
    return m ? [{ id: m[1]!, text: m[2]! }] : [];
  });
}

function classifyAnswer(request: ProviderRequest): string {
  const items = blocks(request).map(({ id, text }) => {
    const core = text.startsWith('User:') || /^Result of \S+ \(error\)/.test(text) || FACT.test(text);
    return { id, class: core ? 'core' : text.startsWith('Result of') && text.length > 1500 ? 'prune' : 'context' };
  });
  return JSON.stringify({ items });
}

function extractAnswer(request: ProviderRequest): string {
  const all = blocks(request);
  const lines = all.flatMap((b) => b.text.split('\n'));
  const oldGoal = lines.find((l) => l.startsWith('Goal: '));
  const firstUser = all.find((b) => b.text.startsWith('User:'))?.text.slice(6) ?? '';
  const decisions = [...new Set(lines.filter((l) => /decided|Keep in mind/.test(l)).map((l) => l.replace(/^(- |User: |Assistant: )/, '')))];
  const files = [...new Set(lines.flatMap((l) => l.match(/src\/[\w.-]+\.ts/g) ?? []))].slice(0, 30);
  const errors = [...new Set(lines.filter((l) => /\berror\b/i.test(l)))].slice(-3);
  const lastUser = all.findLast((b) => b.text.startsWith('User:'))?.text.slice(6, 206) ?? '';
  return JSON.stringify({
    summary: { goal: oldGoal ? oldGoal.slice(6) : firstUser, decisions, files, openErrors: errors, nextStep: lastUser },
    memories: decisions.filter((d) => d.startsWith('Keep in mind')).map((text) => ({ text, kind: 'project' })),
    skills: [],
  });
}

function summarise(request: ProviderRequest): string {
  const transcript = textOfContent(request.messages[0]?.content);
  const lines = transcript.split('\n');
  const goal = lines.find((l) => l.includes('Goal: '))?.replace(/^.*Goal: /, '') ?? lines.find((l) => l.startsWith('[User]: '))?.slice(8) ?? '';
  const kept: string[] = [];
  let chars = goal.length + 6;
  for (const line of [...lines].reverse()) {
    if (!(FACT.test(line) || /decided|Keep in mind/.test(line)) || kept.includes(line)) continue;
    if (chars + line.length + 1 > SUMMARY_CHARS) break;
    kept.unshift(line);
    chars += line.length + 1;
  }
  return [`Goal: ${goal}`, ...kept].join('\n');
}

/** The scripted model; it records each request it was sent. */
export function scriptedModel(sent: ProviderRequest[]): StreamFn {
  return async function* (request): AsyncGenerator<ProviderEvent> {
    sent.push(request);
    const schema = request.responseSchema?.name;
    const text = schema === 'classify_messages' ? classifyAnswer(request) : schema === 'extract_summary' ? extractAnswer(request) : summarise(request);
    const input = Math.ceil((request.systemPrompt.length + JSON.stringify(request.messages).length) / 4);
    yield {
      type: 'done',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text }],
        stopReason: 'stop',
        usage: { input, output: Math.ceil(text.length / 4), cacheRead: 0, cacheWrite: 0 },
      },
    };
  };
}

// ── one replay ──────────────────────────────────────────────────────────────

export interface Replay {
  raw: number;
  sent: number;
  /** Input tokens of the compaction requests themselves. */
  compactionSent: number;
  compactions: number;
  /** Layered compactions that fell back to the summary pass. */
  fallbacks: number;
  /** Probe accuracy in the request right after the 1st and the 3rd compaction (probes whose fact came before it), and at the end. */
  afterFirst: number | null;
  afterThird: number | null;
  final: number;
  /** Of each extract request's bytes, the share that repeats its classify request's (system + messages). */
  extractPrefix: number[];
  /** Of each turn request's bytes, the share the next one starts with. */
  prefixKept: number;
  prefixTotal: number;
}

const accuracy = (probes: readonly Probe[], text: string): number =>
  probes.length === 0 ? 1 : probes.filter((p) => text.includes(p.answer)).length / probes.length;

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export async function replay(store: SessionStore, cwd: string, session: BenchSession, strategy: 'layered' | 'summary'): Promise<Replay> {
  const id = store.create({ title: `bench ${strategy}`, cwd }).id;
  const requests: ProviderRequest[] = [];
  const stream = scriptedModel(requests);
  const r: Replay = {
    raw: 0,
    sent: 0,
    compactionSent: 0,
    compactions: 0,
    fallbacks: 0,
    afterFirst: null,
    afterThird: null,
    final: 0,
    extractPrefix: [],
    prefixKept: 0,
    prefixTotal: 0,
  };
  let raw = 0; // tokens of every message so far: the whole history a request would carry without compression
  let previous: string[] | null = null;
  let lastText = '';
  for (let t = 0; t <= session.turns.length; t++) {
    if (t > 0) {
      // A model call before turn t's entries: compact first when what would be sent passes the threshold.
      let request = maskToolOutput(store.context(id), DEFAULT_MASKING);
      if (tokens(request.messages) > DEFAULT_COMPACTION.threshold * WINDOW) {
        requests.length = 0;
        const outcome = await compactSession({
          store,
          sessionId: id,
          context: store.context(id),
          stream,
          model: MODEL,
          keepRecentTokens: DEFAULT_COMPACTION.keepRecentTokens,
          strategy,
          keepShare: DEFAULT_KEEP_SHARE,
          signal: new AbortController().signal,
        });
        for (const q of requests) r.compactionSent += Math.ceil((q.systemPrompt.length + JSON.stringify(q.messages).length) / 4);
        const classify = requests.find((q) => q.responseSchema?.name === 'classify_messages');
        const extract = requests.find((q) => q.responseSchema?.name === 'extract_summary');
        if (classify && extract) {
          const a = classify.systemPrompt + JSON.stringify(classify.messages);
          const b = extract.systemPrompt + JSON.stringify(extract.messages);
          r.extractPrefix.push(commonPrefix(a, b) / b.length);
        }
        if (outcome.ok) {
          r.compactions++;
          if (outcome.entry.strategy !== strategy) r.fallbacks++;
          request = maskToolOutput(store.context(id), DEFAULT_MASKING);
          const text = JSON.stringify(request.messages);
          const known = session.probes.filter((p) => p.turn < t - 1);
          if (r.compactions === 1) r.afterFirst = accuracy(known, text);
          if (r.compactions === 3) r.afterThird = accuracy(known, text);
        }
      }
      r.raw += raw;
      r.sent += tokens(request.messages);
      const bytes = request.messages.map((m) => JSON.stringify(m));
      if (previous) {
        let kept = 0;
        for (let i = 0; i < previous.length && i < bytes.length && previous[i] === bytes[i]; i++) kept += previous[i]!.length;
        r.prefixKept += kept;
        r.prefixTotal += previous.reduce((sum, b) => sum + b.length, 0);
      }
      previous = bytes;
      lastText = JSON.stringify(request.messages);
    }
    if (t === session.turns.length) break;
    for (const input of session.turns[t]!) {
      store.append(id, input);
      if (input.type === 'message') raw += tokens([input.message as Message]);
    }
  }
  r.final = accuracy(session.probes, lastText);
  return r;
}
