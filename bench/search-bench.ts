// `npm run bench -- search [--files N] [--queries N]`: the workspace search plugin on a generated tree of
// mixed languages and realistic sizes (default 20,000 files; each source file one valid function named after it,
// importing and calling earlier files' functions, most often a few central ones), measured through the plugin in
// its own process (each query a tool call from main's registry, as the agent makes it):
//   cold_build_ms             — first search call until the index answers (walk, read, index every file);
//   cold_build_cpu_s          — the CPU time the plugin's process used until then (all its threads): the figure a
//                               loaded machine does not move;
//   during_build_text_p50_ms / _p95, during_build_substring_… — calls made while the build runs (each answered from
//                               grep over one small folder, as the index is not ready): how long the indexer's thread
//                               keeps a call waiting while it builds;
//   text_p50_ms / text_p95_ms — warm `search` in text mode (BM25 over words, best lines read from the files);
//   substring_p50_ms / _p95   — warm `search` in substring mode (trigram candidates, then an exact check);
//   symbol_p50_ms / _p95      — warm `search` in symbol mode for a generated function (definition, then uses);
//   repo_map_first_ms, repo_map_warm_p50_ms, repo_map_refresh_p50_ms / _max_ms — `repo_map` the first time (the
//                               symbol graph read from the index), again with a focus, and right after a file changed;
//   symbol_tagging_ms         — the grammars over every source file, timed in the bench's own process: what the
//                               symbols add to the cold build;
//   grep_p50_ms               — `search` in grep mode (today's grep tool: a walk and a read of every file);
//   update_p50_ms / _max_ms   — one file rewritten with a new word until a text search finds it;
//   index_mb / corpus_mb / index_ratio — the index file(s) beside the text indexed;
//   indexer_peak_rss_mb, indexer_rss_after_build_mb, indexer_rss_after_queries_mb — the plugin process's VmRSS
//                               (sampled every 100 ms during the build), and rss_after_grep_mb once the grep
//                               calls (in the same process) have read the whole tree.
// Targets (issue 22): cold ≤ 60 s, text and substring p50 ≤ 20 ms and p95 ≤ 50 ms, update ≤ 200 ms,
// repo-map refresh ≤ 1 s, index ≤ 3× the corpus, RSS ≤ 200 MB. The last line of output is one JSON object.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createForkLauncher, discoverPlugins, PluginService, type PluginStateStore } from '../src/main/plugins/index.ts';
import { SymbolTagger } from '../src/plugins/workspace-search/symbol-tagger.ts';
import { seededRandom as random } from '../tests/fixtures/seeded-random.ts';

const { values } = parseArgs({ options: { files: { type: 'string', default: '20000' }, queries: { type: 'string', default: '200' } } });
const FILES = Number(values.files);
const QUERIES = Number(values.queries);
const root = resolve(import.meta.dirname, '..');

const rand = random(22);
const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;

const STEMS = [
  'user',
  'account',
  'session',
  'invoice',
  'payment',
  'order',
  'cart',
  'token',
  'cache',
  'queue',
  'worker',
  'stream',
  'buffer',
  'parser',
  'render',
  'layout',
  'widget',
  'config',
  'plugin',
  'index',
  'search',
  'query',
  'result',
  'branch',
  'commit',
  'file',
  'folder',
  'path',
  'event',
  'handler',
  'request',
  'response',
  'header',
  'body',
  'client',
  'server',
  'socket',
  'timer',
  'retry',
  'limit',
  'budget',
  'wallet',
  'model',
  'prompt',
  'message',
  'thread',
  'channel',
  'schema',
  'record',
  'table',
];
const VERBS = [
  'get',
  'set',
  'load',
  'save',
  'parse',
  'build',
  'make',
  'find',
  'update',
  'remove',
  'create',
  'read',
  'write',
  'check',
  'count',
  'open',
  'close',
  'start',
  'stop',
  'send',
];
const WORDS = [
  'the',
  'a',
  'when',
  'each',
  'every',
  'returns',
  'keeps',
  'after',
  'before',
  'unless',
  'only',
  'first',
  'last',
  'new',
  'old',
  'empty',
  'full',
  'ready',
  'done',
  'failed',
];
const camel = () => `${pick(VERBS)}${pick(STEMS).replace(/^./, (c) => c.toUpperCase())}${pick(STEMS).replace(/^./, (c) => c.toUpperCase())}`;
const snake = () => `${pick(VERBS)}_${pick(STEMS)}_${pick(STEMS)}`;
const comment = () => Array.from({ length: 4 + Math.floor(rand() * 8) }, () => (rand() < 0.3 ? pick(STEMS) : pick(WORDS))).join(' ');

const cap = (word: string) => word.replace(/^./, (c) => c.toUpperCase());

/** A file's body lines, and the envelope that makes it a valid program: one function per file, named after the file. */
interface Language {
  ext: string;
  line: () => string;
  /** The function a file of this language defines, from its number. */
  name?: (i: number) => string;
  /** What comes before the lines (imports of earlier files' functions, the function's head) and after them. */
  wrap?: (name: string, imports: { name: string; path: string }[]) => [string, string];
}
const LANGUAGES: Language[] = [
  {
    ext: 'ts',
    line: () => (rand() < 0.2 ? `  // ${comment()}` : `  const ${camel()} = ${camel()}(${pick(STEMS)}, ${Math.floor(rand() * 100)});`),
    name: (i) => `${pick(VERBS)}${cap(pick(STEMS))}File${i}`,
    wrap: (name, imports) => [
      `${imports.map((m) => `import { ${m.name} } from '../../${m.path.replace(/\.ts$/, '')}';\n`).join('')}\nexport function ${name}(input: number) {\n${imports.map((m) => `  ${m.name}(input);\n`).join('')}`,
      '  return input;\n}\n',
    ],
  },
  {
    ext: 'tsx',
    line: () => `      <${cap(pick(STEMS))} on${pick(VERBS)}={${camel()}} />`,
    name: (i) => `${cap(pick(STEMS))}View${i}`,
    wrap: (name) => [`export function ${name}() {\n  return (\n    <>\n`, '    </>\n  );\n}\n'],
  },
  {
    ext: 'py',
    line: () => (rand() < 0.2 ? `    # ${comment()}` : `    ${snake()} = ${snake()}(${pick(STEMS)}, ${Math.floor(rand() * 100)})`),
    name: (i) => `${pick(VERBS)}_${pick(STEMS)}_file_${i}`,
    wrap: (name, imports) => [
      `${imports.map((m) => `from ${m.path.replace(/\.py$/, '').replace(/\//g, '.')} import ${m.name}\n`).join('')}\n\ndef ${name}(value):\n${imports.map((m) => `    ${m.name}(value)\n`).join('')}`,
      '    return value\n',
    ],
  },
  {
    ext: 'go',
    line: () => `\t${camel()} := ${camel()}(ctx, ${pick(STEMS)})`,
    name: (i) => `${cap(pick(VERBS))}${cap(pick(STEMS))}File${i}`,
    wrap: (name) => [`package main\n\nfunc ${name}(ctx Context) error {\n`, '\treturn nil\n}\n'],
  },
  {
    ext: 'rs',
    line: () => `    let ${snake()} = ${snake()}(&${pick(STEMS)})?;`,
    name: (i) => `${pick(VERBS)}_${pick(STEMS)}_file_${i}`,
    wrap: (name) => [`pub fn ${name}() -> Result<(), Error> {\n`, '    Ok(())\n}\n'],
  },
  {
    ext: 'sh',
    line: () => `  ${pick(VERBS)}_${pick(STEMS)} "$${pick(STEMS).toUpperCase()}" || exit 1`,
    name: (i) => `${pick(VERBS)}_${pick(STEMS)}_file_${i}`,
    wrap: (name) => [`${name}() {\n`, '}\n'],
  },
  { ext: 'md', line: () => comment() },
  { ext: 'json', line: () => `  "${camel()}": "${comment()}",` },
];

/** Sizes like a real repository's: mostly a few KB, a tail up to ~200 KB. */
const fileBytes = () => Math.min(200_000, Math.round(Math.exp(7 + rand() * 2.2 + (rand() < 0.05 ? 2 : 0))));

const dir = mkdtempSync(join(tmpdir(), 'amber-search-bench-'));
const workspace = join(dir, 'ws');
const dataDir = join(dir, 'search-data');
let corpusBytes = 0;
const identifiers: string[] = [];
/** Functions the generated files define, by language: what later files import, and what symbol queries ask for. */
const defined = new Map<string, { name: string; path: string }[]>();
const started = performance.now();
for (let i = 0; i < FILES; i++) {
  const folder = join(workspace, `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`);
  if (i < 1000) mkdirSync(folder, { recursive: true });
  const lang = pick(LANGUAGES);
  const target = fileBytes();
  const lines: string[] = [];
  let size = 0;
  while (size < target) {
    const line = lang.line();
    lines.push(line);
    size += line.length + 1;
  }
  const name = `${pick(STEMS)}-${pick(STEMS)}-${i}.${lang.ext}`;
  const rel = `pkg${i % 40}/mod${Math.floor(i / 40) % 25}/${name}`;
  let text = `${lines.join('\n')}\n`;
  if (lang.name && lang.wrap) {
    const fn = lang.name(i);
    // Earlier files' functions, imported and called: most from a few central files, the rest at random.
    let earlier = defined.get(lang.ext);
    if (!earlier) defined.set(lang.ext, (earlier = []));
    const imports = earlier.length === 0 ? [] : [...new Set([earlier[Math.floor(rand() * Math.min(20, earlier.length))]!, pick(earlier)])];
    const [head, tail] = lang.wrap(fn, imports);
    text = `${head}${text}${tail}`;
    earlier.push({ name: fn, path: rel });
  }
  writeFileSync(join(folder, name), text);
  corpusBytes += Buffer.byteLength(text);
  if (identifiers.length < 2000 && rand() < 0.2) identifiers.push(/[a-z]+[A-Z][a-z]+[A-Z][a-z]+/.exec(text)?.[0] ?? camel());
}
const generateMs = performance.now() - started;

function stateStore(): PluginStateStore {
  const states = new Map<string, boolean>();
  const settings = new Map<string, string>();
  return {
    pluginStates: () => new Map(states),
    setPluginState: (id, on) => void states.set(id, on),
    getSetting: (key) => settings.get(key) ?? null,
    setSetting: (key, value) => void (value === null ? settings.delete(key) : settings.set(key, value)),
  };
}

const { plugins } = discoverPlugins({ bundledRoot: join(root, 'src/plugins'), bundledIds: ['workspace-search'] });
const service = new PluginService({
  store: stateStore(),
  dataDir: dir,
  workspace,
  plugins,
  config: () => ({ dataDir }),
  launcher: createForkLauncher({ execArgv: [] }),
  initializeTimeoutMs: 30_000,
  callTimeoutMs: 600_000,
  tickIntervalMs: 0,
});
await service.start();

const call = async (args: Record<string, unknown>, tool = 'search'): Promise<string> => {
  const out = await service.registries.tools.execute(tool, args, undefined, { sessionId: 'bench', workspace, denied: [dataDir] });
  const text = out.content.map((c) => ('text' in c ? c.text : '')).join('');
  if (out.isError) throw new Error(text);
  return text;
};
/** CPU seconds a process has used (user and system, all its threads), from /proc (clock ticks of 1/100 s). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
const percentile = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))]!;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

try {
  // Cold build: the first call starts the plugin's process and the build. Until it is done calls answer from
  // grep, so they are asked about one small folder: a grep over the whole tree would compete with the build.
  const coldStart = performance.now();
  let peakRss = 0;
  let sampler: NodeJS.Timeout | null = null;
  // Calls made while the build runs, text and substring by turns: how long the indexer keeps a call waiting.
  const duringTextMs: number[] = [];
  const duringSubstringMs: number[] = [];
  for (let n = 0; ; n++) {
    const asked = performance.now();
    const pending = call({ query: 'zzzz', path: 'pkg0/mod0', limit: 1, ...(n % 2 ? { mode: 'substring' } : {}) });
    if (!sampler) {
      sampler = setInterval(() => {
        const pid = service.get('workspace_search').pid;
        if (pid) peakRss = Math.max(peakRss, rssMb(pid));
      }, 100);
    }
    const building = (await pending).includes('The index is still building');
    if (!building) break;
    // The first call waits up to a second for the index: not counted.
    if (n > 0) (n % 2 ? duringSubstringMs : duringTextMs).push(performance.now() - asked);
  }
  const coldMs = performance.now() - coldStart;
  if (sampler) clearInterval(sampler);
  const pid = service.get('workspace_search').pid!;
  const rssAfterBuild = rssMb(pid);
  const buildCpuS = cpuSeconds(pid);

  const time = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    const out = await call(args);
    return { ms: performance.now() - t0, out };
  };
  const textMs: number[] = [];
  const substringMs: number[] = [];
  let textHits = 0;
  let substringHits = 0;
  for (let i = 0; i < QUERIES; i++) {
    const words = rand() < 0.5 ? pick(identifiers) : `${pick(STEMS)} ${pick(STEMS)}`;
    const t = await time({ query: words, limit: 20 });
    textMs.push(t.ms);
    if (!t.out.startsWith('No matches')) textHits++;
    const id = pick(identifiers);
    const from = Math.floor(rand() * Math.max(1, id.length - 8));
    const s = await time({ query: id.slice(from, from + 8), mode: 'substring', limit: 20 });
    substringMs.push(s.ms);
    if (!s.out.startsWith('No matches')) substringHits++;
  }
  const symbolMs: number[] = [];
  let symbolHits = 0;
  const functions = [...defined.values()].flat();
  for (let i = 0; i < QUERIES; i++) {
    const fn = pick(functions);
    const t = await time({ query: fn.name, mode: 'symbol', limit: 20 });
    symbolMs.push(t.ms);
    if (t.out.startsWith(`Definitions of ${fn.name}:\n${fn.path}:`)) symbolHits++;
  }
  // The repo map: the first (the symbol graph read from the index), again (ranked again only), and after one file
  // changes (its symbols indexed again, the graph read again): what a call costs once an edit has landed.
  const mapTime = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    const out = await call(args, 'repo_map');
    if (!out.includes(':\n')) throw new Error(`The repo map came back empty: ${out}`);
    return performance.now() - t0;
  };
  const mapFirstMs = await mapTime({});
  const mapWarmMs: number[] = [];
  for (let i = 0; i < 5; i++) mapWarmMs.push(await mapTime({ focus: [pick(functions).path] }));
  const mapRefreshMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const fn = functions[i]!;
    const file = join(workspace, fn.path);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n// edited ${i}\n`);
    mapRefreshMs.push(await mapTime({ focus: [fn.path] }));
  }
  const rssAfterQueries = rssMb(pid);
  const grepMs: number[] = [];
  for (let i = 0; i < 5; i++) grepMs.push((await time({ query: pick(identifiers), mode: 'grep', limit: 20 })).ms);

  const updateMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const word = `benchFresh${i}Marker`;
    const file = join(workspace, `pkg${i}`, 'mod0', readdirSync(join(workspace, `pkg${i}`, 'mod0'))[0]!);
    const t0 = performance.now();
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nconst ${word} = 1;\n`);
    while (!(await call({ query: word, limit: 1 })).includes(word)) {
      if (performance.now() - t0 > 10_000) throw new Error(`${word} was not searchable after 10 s.`);
    }
    updateMs.push(performance.now() - t0);
  }

  // What the symbols add to the cold build: the same grammars over every file, timed here in the bench's process.
  const tagger = new SymbolTagger({ references: 'linking' });
  await tagger.load();
  const taggingStarted = performance.now();
  for (const fn of functions) tagger.tags(fn.path, readFileSync(join(workspace, fn.path), 'utf8'));
  const taggingMs = performance.now() - taggingStarted;

  const indexes = join(dataDir, 'indexes');
  const indexBytes = readdirSync(indexes).reduce((sum, f) => sum + statSync(join(indexes, f)).size, 0);
  const figures = {
    files: FILES,
    generate_ms: Math.round(generateMs),
    cold_build_ms: Math.round(coldMs),
    cold_build_cpu_s: round(buildCpuS),
    during_build_text_p50_ms: round(percentile(duringTextMs, 50), 2),
    during_build_text_p95_ms: round(percentile(duringTextMs, 95), 2),
    during_build_substring_p50_ms: round(percentile(duringSubstringMs, 50), 2),
    during_build_substring_p95_ms: round(percentile(duringSubstringMs, 95), 2),
    text_p50_ms: round(percentile(textMs, 50), 2),
    text_p95_ms: round(percentile(textMs, 95), 2),
    text_found: `${textHits}/${QUERIES}`,
    substring_p50_ms: round(percentile(substringMs, 50), 2),
    substring_p95_ms: round(percentile(substringMs, 95), 2),
    substring_found: `${substringHits}/${QUERIES}`,
    symbol_p50_ms: round(percentile(symbolMs, 50), 2),
    symbol_p95_ms: round(percentile(symbolMs, 95), 2),
    symbol_found: `${symbolHits}/${QUERIES}`,
    repo_map_first_ms: round(mapFirstMs),
    repo_map_warm_p50_ms: round(percentile(mapWarmMs, 50)),
    repo_map_refresh_p50_ms: round(percentile(mapRefreshMs, 50)),
    repo_map_refresh_max_ms: round(Math.max(...mapRefreshMs)),
    symbol_tagging_ms: Math.round(taggingMs),
    grep_p50_ms: round(percentile(grepMs, 50)),
    update_p50_ms: round(percentile(updateMs, 50)),
    update_max_ms: round(Math.max(...updateMs)),
    corpus_mb: round(corpusBytes / 1024 / 1024),
    index_mb: round(indexBytes / 1024 / 1024),
    index_ratio: round(indexBytes / corpusBytes, 2),
    indexer_peak_rss_mb: round(peakRss),
    indexer_rss_after_build_mb: round(rssAfterBuild),
    indexer_rss_after_queries_mb: round(rssAfterQueries),
    rss_after_grep_mb: round(rssMb(pid)),
  };
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(22)} ${value}`);
  console.log(JSON.stringify(figures));
} finally {
  await service.dispose();
  rmSync(dir, { recursive: true, force: true });
}
