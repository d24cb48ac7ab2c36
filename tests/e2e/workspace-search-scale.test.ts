// Workspace search as the "done when" asks, end to end on the real parts: the headless shell, the search
// plugin in its own process, a scripted model on a loopback server. In a generated workspace of mixed languages
// the model searches a word (text), a fragment (substring) and a name (symbol), then asks for the repo map, and
// each tool result it reads names the right file. The workspace has 400 files here; `AMBER_SEARCH_E2E_FILES=20000`
// runs it at the size (a cold build of over a minute), printing how long the index took and each call.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { openAiStream, type RecordedRequest } from '../fixtures/provider-server.ts';
import { seededRandom as random } from '../fixtures/seeded-random.ts';

/** The workspace's size: AMBER_SEARCH_E2E_FILES when it is a whole number from 1 to 100,000, else 400. */
const FILES = /^\d{1,6}$/.test(process.env.AMBER_SEARCH_E2E_FILES ?? '') ? Math.min(100_000, Math.max(1, Number(process.env.AMBER_SEARCH_E2E_FILES))) : 400;

const STEMS = ['user', 'account', 'session', 'invoice', 'payment', 'order', 'cache', 'queue', 'worker', 'stream', 'parser', 'config', 'event', 'client'];
const VERBS = ['get', 'set', 'load', 'save', 'parse', 'build', 'find', 'update', 'remove', 'send'];
const WORDS = ['the', 'when', 'each', 'returns', 'keeps', 'after', 'before', 'only', 'first', 'last', 'ledger', 'reconcile', 'frobnicate', 'tariff'];

const cap = (word: string) => word.replace(/^./, (c) => c.toUpperCase());

/**
 * Writes `files` files of mixed languages and sizes (mostly 1–9 KB) in folders of 25, whose comments now and then
 * name the needles' words, then the needles: the one file about reconciling the ledger, one fragment inside one
 * identifier, and one Python function defined once and imported by three files (beside a longer name like it).
 */
function writeWorkspace(root: string, files: number): void {
  const rand = random(22);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const kinds = [
    { ext: 'ts', line: () => `  const ${pick(VERBS)}${cap(pick(STEMS))} = ${pick(VERBS)}${cap(pick(STEMS))}(${Math.floor(rand() * 100)}); // ${pick(WORDS)}` },
    { ext: 'py', line: () => `    ${pick(VERBS)}_${pick(STEMS)} = ${pick(VERBS)}_${pick(STEMS)}(${Math.floor(rand() * 100)})  # ${pick(WORDS)}` },
    { ext: 'go', line: () => `\t${pick(VERBS)}${cap(pick(STEMS))} := ${cap(pick(VERBS))}${cap(pick(STEMS))}(ctx) // ${pick(WORDS)}` },
    { ext: 'rs', line: () => `    let ${pick(VERBS)}_${pick(STEMS)} = ${pick(VERBS)}_${pick(STEMS)}(&ctx)?; // ${pick(WORDS)}` },
    { ext: 'sh', line: () => `  ${pick(VERBS)}_${pick(STEMS)} "$${pick(STEMS).toUpperCase()}" # ${pick(WORDS)}` },
    { ext: 'md', line: () => Array.from({ length: 8 }, () => pick(WORDS)).join(' ') },
  ];
  for (let i = 0; i < files; i++) {
    const folder = join(root, `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`);
    if (i < 1000) mkdirSync(folder, { recursive: true });
    const kind = pick(kinds);
    const target = Math.round(Math.exp(7 + rand() * 2.2));
    const lines: string[] = [];
    for (let size = 0; size < target; size += lines.at(-1)!.length + 1) lines.push(kind.line());
    writeFileSync(join(folder, `${pick(STEMS)}-${i}.${kind.ext}`), `${lines.join('\n')}\n`);
  }
  mkdirSync(join(root, 'billing'));
  writeFileSync(
    join(root, 'billing', 'ledger-reconcile.ts'),
    '// Reconcile the ledger: match each payment with its invoice.\nexport function reconcileLedger(entries: number[]) {\n  return entries.length;\n}\n',
  );
  mkdirSync(join(root, 'tools'));
  writeFileSync(join(root, 'tools', 'frob.go'), 'package tools\n\nvar quuxFrobnicator = NewFrobnicator()\n');
  mkdirSync(join(root, 'tariffs'));
  writeFileSync(join(root, 'tariffs', '__init__.py'), '');
  writeFileSync(join(root, 'tariffs', 'matrix.py'), '"""Tariffs."""\n\n\ndef compute_tariff_matrix(rates):\n    return [rates]\n');
  writeFileSync(join(root, 'tariffs', 'legacy.py'), 'def compute_tariff_matrix_v2(rates):\n    return rates\n');
  for (const user of ['billing_run', 'quote', 'report']) {
    writeFileSync(
      join(root, 'tariffs', `${user}.py`),
      `from tariffs.matrix import compute_tariff_matrix\n\n\ndef ${user}(rates):\n    return compute_tariff_matrix(rates)\n`,
    );
  }
}

/** The calls the model makes once the index answers, in order: a word, a fragment, a name, then the map. */
const STEPS = [
  { name: 'search', arguments: { query: 'reconcile ledger', limit: 5 } },
  { name: 'search', arguments: { query: 'xFrobnicat', mode: 'substring' } },
  { name: 'search', arguments: { query: 'compute_tariff_matrix', mode: 'symbol' } },
  { name: 'repo_map', arguments: { focus: ['tariffs/quote.py'], tokens: 400 } },
];

type WireMessage = { role: string; content?: unknown; tool_call_id?: string };
const messagesOf = (request: RecordedRequest) => (request.body as { messages: WireMessage[] }).messages;

let h: HeadlessUnderTest;
let probes = 0;
/** When each step was answered to the model, and when the model's next request brought its result back. */
const stepAsked: number[] = [];
const stepReturned: number[] = [];

/**
 * The scripted model: it probes with a small search in one folder while the tool says the index is still building
 * (the first call starts the plugin and the build), then makes each of STEPS in turn, and answers once all are done.
 */
function model(request: RecordedRequest) {
  const body = request.body as { tools?: unknown[] };
  if (!body.tools?.length || request.bodyText.includes('Is the task the user asked for finished?')) return openAiStream({ text: 'Done.' });
  const messages = messagesOf(request);
  const last = messages.at(-1)!;
  const building = last.role === 'tool' && String(last.content).includes('The index is still building');
  if (last.role === 'user' || building) {
    probes += 1;
    return openAiStream({
      text: `Waiting for the index (${probes}).`,
      toolCalls: [{ id: `probe_${probes}`, name: 'search', arguments: { query: 'warm', path: 'pkg0/mod0', limit: probes } }],
    });
  }
  const done = messages.filter((m) => m.role === 'tool' && m.tool_call_id?.startsWith('step_')).length;
  if (done > 0) stepReturned[done - 1] = performance.now();
  stepAsked[done] = performance.now();
  const step = STEPS[done];
  if (!step) return openAiStream({ text: 'Found all four.' });
  return openAiStream({ text: `Step ${done + 1}.`, toolCalls: [{ id: `step_${done}`, ...step }] });
}

beforeEach(
  async () => {
    h = await openHeadless({ prefix: 'amber-e2e-search-scale-', script: model, before: (workspace) => writeWorkspace(workspace, FILES) });
  },
  Math.max(30_000, FILES * 5),
);

afterEach(() => h.close(), Math.max(30_000, FILES * 5));

test(
  'in a generated workspace the model finds a word, a fragment and a symbol through search, and reads the repo map',
  async () => {
    await h.connect();
    const session = await h.client.call<{ id: string }>('sessions.create', { title: 'scale' });
    await h.client.call('policy.setMode', { sessionId: session.id, mode: 'read' });
    const first = h.server.requests.length;
    const started = performance.now();
    await h.send(session.id, 'Find the ledger reconciliation, the frobnicator and the tariff matrix, then map the code.');

    const requests = h.server.requests.slice(first);
    const answered = requests.findLast((r) => messagesOf(r).some((m) => m.tool_call_id === `step_${STEPS.length - 1}`))!;
    expect(answered, 'the model was given the last step result').toBeDefined();
    const result = (i: number) => String(messagesOf(answered).find((m) => m.role === 'tool' && m.tool_call_id === `step_${i}`)?.content);

    expect(result(0).split('\n')[0]).toBe('billing/ledger-reconcile.ts:1: // Reconcile the ledger: match each payment with its invoice.');
    expect(result(1)).toBe('tools/frob.go:3: var quuxFrobnicator = NewFrobnicator()');
    const symbol = result(2).split('\n');
    expect(symbol.slice(0, 3)).toEqual(['Definitions of compute_tariff_matrix:', 'tariffs/matrix.py:4: def compute_tariff_matrix(rates):  (function)', '']);
    expect(symbol[3]).toBe('Files that use compute_tariff_matrix:');
    expect(
      symbol
        .slice(4)
        .map((line) => line.split(':')[0])
        .sort(),
    ).toEqual(['tariffs/billing_run.py', 'tariffs/quote.py', 'tariffs/report.py']);
    expect(result(3)).toMatch(/^tariffs\/matrix\.py:\n +4: def compute_tariff_matrix\(rates\):$/m);
    for (let i = 0; i < STEPS.length; i++) expect(result(i), `step ${i}`).not.toMatch(/still building|come from grep/);

    console.log(
      JSON.stringify({
        files: FILES,
        probes,
        index_answered_ms: Math.round(stepAsked[0]! - started),
        // Each call from the model's request to its result coming back (the agent, the plugin and the stream).
        calls_ms: Object.fromEntries(
          ['search_text', 'search_substring', 'search_symbol', 'repo_map'].map((name, i) => [name, Math.round(stepReturned[i]! - stepAsked[i]!)]),
        ),
      }),
    );
  },
  Math.max(60_000, FILES * 15),
);
