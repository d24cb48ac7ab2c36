// `npm run bench -- search-quality [--corpus amber|generated|both]`: how often each way of searching finds the file
// that answers a question, over two corpora:
//   amber     — a copy of this repository's tracked files (this bench and docs/search.md left out, as they hold the
//               questions): 38 questions in words written by hand with the file that answers each, plus one question
//               per sampled source file naming the export the file is named after (kebab-case files are named after
//               their one export), 25 of them;
//   generated — a generated project in TypeScript, Python, Go and Rust whose files define functions and call each
//               other's: 25 questions naming a function, 25 asking for it in words (its name's parts).
// Modes, each as an agent would call the tools:
//   grep        — `search` mode grep with the question's words (the commonest English words left out) as
//                 alternatives, case-insensitive: files in the order their first matching line comes;
//   text        — `search` mode text with the question;
//   symbol      — `search` mode symbol with the question's name, or each of its words in turn: defining files, then
//                 the files that use it;
//   text+map    — `search` text's best 3 files, then `repo_map` leaning toward those files and the question's words;
//   semantic    — `search` mode semantic with the question, only when an embeddings endpoint is named in the
//                 environment: AMBER_EMBEDDINGS_URL (an OpenAI-compatible base URL), AMBER_EMBEDDINGS_MODEL, and
//                 AMBER_EMBEDDINGS_KEY and AMBER_EMBEDDINGS_DIMENSIONS where needed. The corpus is embedded first.
// Figure: recall@5 — per question, the share of its answer files among the first 5 files (at most 5 answers), averaged.
// The last line of output is one JSON object.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createRepoMapTool,
  createSearchTool,
  EmbeddingClient,
  embeddingModelKey,
  readEmbeddingConfig,
  SearchIndexService,
  SemanticIndex,
} from '../src/plugins/workspace-search/index.ts';
import { seededRandom as random } from '../tests/fixtures/seeded-random.ts';

const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'both' } } });
const root = resolve(import.meta.dirname, '..');
const embeddings = readEmbeddingConfig({
  embeddings: {
    baseUrl: process.env['AMBER_EMBEDDINGS_URL'],
    model: process.env['AMBER_EMBEDDINGS_MODEL'],
    apiKey: process.env['AMBER_EMBEDDINGS_KEY'],
    dimensions: process.env['AMBER_EMBEDDINGS_DIMENSIONS'] ? Number(process.env['AMBER_EMBEDDINGS_DIMENSIONS']) : undefined,
  },
});
if (embeddings.problem) throw new Error(embeddings.problem);

interface Question {
  ask: string;
  answers: string[];
  kind: 'words' | 'name';
}

/** Hand-written questions over Amber's own repository, each with the file(s) that answer it. */
const AMBER_WORDS: [string, string[]][] = [
  ['classify a shell command line before it runs', ['src/main/policy/shell-classify.ts']],
  ['bubblewrap sandbox arguments', ['src/plugins/workspace-tools/sandbox/bwrap-args.ts']],
  ['macOS seatbelt sandbox profile', ['src/plugins/workspace-tools/sandbox/seatbelt-profile.ts']],
  ['gitignore patterns for the search index', ['src/plugins/workspace-search/gitignore-rules.ts']],
  ['split identifiers into camelCase and snake_case words', ['src/plugins/workspace-search/identifier-words.ts']],
  ['append an entry under the leaf and branch', ['src/main/sessions/session-store.ts']],
  ['database schema migrations', ['src/main/sessions/migrations.ts']],
  ['context for the model from the leaf cut at the newest compaction', ['src/main/sessions/context-builder.ts']],
  ['compaction summary of older messages', ['src/main/agent/compactor.ts']],
  ['dispatch tool calls in parallel with results in call order', ['src/main/agent/tool-dispatcher.ts']],
  ['agent loop stops when the reply has no tool calls', ['src/main/agent/agent-loop.ts']],
  ['assemble the system prompt', ['src/main/agent/system-prompt.ts', 'src/main/agent/system-prompt-builder.ts']],
  ['read server-sent events from a stream', ['src/plugins/provider-common/read-sse.ts']],
  ['retry a request after 429 with retry-after', ['src/plugins/provider-common/send-with-retry.ts']],
  ['anthropic request body', ['src/plugins/anthropic/anthropic-request-body.ts']],
  ['think tags split reasoning from text', ['src/plugins/openai-compatible/think-tag-splitter.ts']],
  ['ledger of plugin contributions disposed newest first', ['src/main/plugins/runtime/plugin-ledger.ts']],
  ['discover plugins and read their manifests', ['src/main/plugins/runtime/plugin-discovery.ts']],
  ['launch a plugin with child_process fork', ['src/main/plugins/launchers/fork-launcher.ts']],
  ['electron utility process launcher', ['src/main/electron/utility-launcher.ts']],
  ['content security policy of the window', ['src/main/electron/window-csp.ts']],
  ['open an external url in the browser', ['src/main/electron/external-url.ts']],
  ['store api keys encrypted', ['src/main/providers/secret-store.ts']],
  ['memory records stored and searched', ['src/plugins/memory/memory-store.ts']],
  ['budget spend per period', ['src/plugins/budget/budget-ledger.ts', 'src/plugins/budget/budget-period.ts']],
  ['openrouter credits', ['src/plugins/wallet/openrouter-credits.ts']],
  ['deepseek balance', ['src/plugins/wallet/deepseek-balance.ts']],
  ['mcp oauth sign in provider', ['src/plugins/mcp/mcp-oauth-provider.ts', 'src/plugins/mcp/mcp-sign-in.ts']],
  ['walk files without following symbolic links', ['src/plugins/workspace-tools/walk-files.ts']],
  ['edit tool replaces old text with new text', ['src/plugins/workspace-tools/edit-tool.ts', 'src/plugins/workspace-tools/replace-content.ts']],
  ['truncate tool output by lines and bytes', ['src/plugins/workspace-tools/truncate-output.ts']],
  ['import a pi session file', ['src/main/sessions/pi-session-import.ts']],
  ['verify the hash chain of entries', ['src/main/sessions/chain-verifier.ts', 'src/main/sessions/entry-hash.ts']],
  ['headless shell serves the renderer with a token', ['src/main/headless/headless-shell.ts']],
  ['run an eval suite and score it', ['src/main/evals/eval-runner.ts', 'src/main/evals/eval-scoring.ts']],
  ['skills listed from SKILL.md folders', ['src/main/skills/skill-library.ts', 'src/main/skills/skill-file.ts']],
  ['parse front matter of agent files', ['src/main/agent-definitions/front-matter.ts']],
  ['run a subagent task as a child', ['src/main/subagents/child-run.ts', 'src/main/subagents/subagent-service.ts']],
];
const LEFT_OUT = new Set(['bench/search-quality-bench.ts', 'docs/search.md']);

const pascal = (kebab: string) => kebab.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());
const camel = (kebab: string) => pascal(kebab).replace(/^./, (c) => c.toLowerCase());

/** Amber's tracked files copied to `into`, and its questions: the hand-written ones, and 25 naming a file's own export. */
function amberCorpus(into: string): Question[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && !LEFT_OUT.has(f));
  for (const file of files) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    try {
      copyFileSync(join(root, file), join(into, file));
    } catch {
      // Deleted in the working tree and not yet committed: left out.
    }
  }
  const questions: Question[] = AMBER_WORDS.map(([ask, answers]) => ({ ask, answers, kind: 'words' }));
  const named: Question[] = [];
  for (const file of files.filter((f) => /^src\/.*\/[a-z0-9-]+\.ts$/.test(f) && !f.endsWith('.test.ts') && !f.endsWith('/index.ts')).sort()) {
    const stem = file.slice(file.lastIndexOf('/') + 1, -3);
    if (!stem.includes('-')) continue;
    let text = '';
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue;
    }
    for (const name of [pascal(stem), camel(stem)]) {
      if (new RegExp(`^export (async )?(function|class|const) ${name}\\b`, 'm').test(text)) named.push({ ask: name, answers: [file], kind: 'name' });
    }
  }
  const step = Math.max(1, Math.floor(named.length / 25));
  return [...questions, ...named.filter((_, i) => i % step === 0).slice(0, 25)];
}

const STEMS =
  'user account session invoice payment order cart token cache queue worker stream buffer parser render layout widget config plugin search query result branch commit folder event handler request response header client server socket timer retry limit budget wallet model prompt message thread channel schema record table'.split(
    ' ',
  );
const VERBS = 'get set load save parse build make find update remove create read write check count open close start stop send'.split(' ');

/**
 * A generated project: 1,500 files in four languages, each defining three functions named verb+stem+stem (a name
 * defined once) and calling six functions of other files; 25 questions name a function, 25 ask for it in words.
 */
function generatedCorpus(into: string): Question[] {
  const rand = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const langs = ['ts', 'py', 'go', 'rs'] as const;
  const defs: { name: string; words: string[]; file: string; lang: (typeof langs)[number] }[] = [];
  const taken = new Set<string>();
  const FILES = 1500;
  const files: { path: string; lang: (typeof langs)[number]; names: string[] }[] = [];
  for (let i = 0; i < FILES; i++) {
    const lang = langs[i % langs.length]!;
    const path = `pkg${i % 30}/${pick(STEMS)}_${pick(STEMS)}_${i}.${lang}`;
    const names: string[] = [];
    while (names.length < 3) {
      const words = [pick(VERBS), pick(STEMS), pick(STEMS)];
      const name = lang === 'py' || lang === 'rs' ? words.join('_') : words[0] + pascal(words[1]!) + pascal(words[2]!);
      if (taken.has(words.join(' '))) continue;
      taken.add(words.join(' '));
      names.push(name);
      defs.push({ name, words, file: path, lang });
    }
    files.push({ path, lang, names });
  }
  for (const file of files) {
    const calls = Array.from({ length: 6 }, () => pick(defs)).filter((d) => d.file !== file.path);
    const body = (name: string) => {
      const callee = calls.length ? pick(calls) : null;
      const comment = Array.from({ length: 6 }, () => pick(STEMS)).join(' ');
      switch (file.lang) {
        case 'ts':
          return `// ${comment}\nexport function ${name}(input: string): string {\n  return ${callee ? `${callee.name}(input)` : 'input'};\n}\n`;
        case 'py':
          return `# ${comment}\ndef ${name}(value):\n    return ${callee ? `${callee.name}(value)` : 'value'}\n`;
        case 'go':
          return `// ${comment}\nfunc ${name}(value string) string {\n\treturn ${callee ? `${callee.name}(value)` : 'value'}\n}\n`;
        default:
          return `// ${comment}\npub fn ${name}(value: &str) -> String {\n    ${callee ? `${callee.name}(value)` : 'value.to_string()'}\n}\n`;
      }
    };
    const head =
      file.lang === 'ts'
        ? calls
            .filter((c) => c.lang === 'ts')
            .map((c) => `import { ${c.name} } from '../${c.file.replace(/\.ts$/, '')}';\n`)
            .join('')
        : file.lang === 'py'
          ? calls
              .filter((c) => c.lang === 'py')
              .map((c) => `from ${c.file.replace(/\.py$/, '').replace('/', '.')} import ${c.name}\n`)
              .join('')
          : file.lang === 'go'
            ? 'package main\n\n'
            : calls
                .filter((c) => c.lang === 'rs')
                .map((c) => `use crate::${c.file.replace(/\.rs$/, '').replace('/', '::')}::${c.name};\n`)
                .join('');
    mkdirSync(dirname(join(into, file.path)), { recursive: true });
    writeFileSync(join(into, file.path), `${head}\n${file.names.map(body).join('\n')}`);
  }
  const questions: Question[] = [];
  for (let i = 0; i < 50; i++) {
    const def = defs[Math.floor(rand() * defs.length)]!;
    questions.push(i % 2 === 0 ? { ask: def.name, answers: [def.file], kind: 'name' } : { ask: def.words.join(' '), answers: [def.file], kind: 'words' });
  }
  return questions;
}

const RESULT_LINE = /^([^\s:][^:]*):\d+: /;

/** The distinct files a search result names, in order. */
function filesOf(text: string): string[] {
  const files: string[] = [];
  for (const line of text.split('\n')) {
    const m = RESULT_LINE.exec(line) ?? /^([^\s:][^:]*): \(its path matches\)$/.exec(line);
    if (m && !files.includes(m[1]!)) files.push(m[1]!);
  }
  return files;
}

/** The files a repo map lists, in order. */
const mapFilesOf = (text: string) => text.split('\n').flatMap((line) => (/^\S.*:$/.test(line) ? [line.slice(0, -1)] : []));

const STOP = new Set('the and for with from its are before after when their into per has not that this each them out runs it'.split(' '));
/** The question's words an agent would look for: three letters or more, the commonest English ones left out. */
const wordsOf = (ask: string) => ask.split(/[^\p{L}\p{N}_-]+/u).filter((w) => w.length >= 3 && !STOP.has(w.toLowerCase()));
const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function measure(name: string, workspace: string, questions: Question[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'amber-quality-index-'));
  const index = new SearchIndexService({ root: workspace, file: join(dataDir, 'index.sqlite'), watch: false });
  const started = performance.now();
  await index.ready;
  const buildMs = performance.now() - started;
  let semantic: SemanticIndex | null = null;
  let embedMs: number | null = null;
  if (embeddings.config) {
    const config = embeddings.config;
    const embedStarted = performance.now();
    semantic = await new Promise<SemanticIndex>((done, fail) => {
      const made: SemanticIndex = new SemanticIndex({
        root: workspace,
        file: join(dataDir, 'index.sqlite'),
        embedder: new EmbeddingClient(config),
        modelKey: embeddingModelKey(config),
        lexical: index,
        onChange: () => {
          const status = made?.status;
          if (status?.state === 'ready') done(made);
          if (status?.state === 'failed' || status?.state === 'unavailable') fail(new Error(status.message));
        },
      });
      if (made.status.state === 'unavailable') fail(new Error(made.status.message));
    });
    embedMs = performance.now() - embedStarted;
  }
  const options = { indexOf: () => index, ...(semantic ? { semanticOf: () => semantic! } : {}) };
  const search = createSearchTool(options);
  const repoMap = createRepoMapTool(options);
  const run = async (tool: typeof search, args: Record<string, unknown>) => {
    const out = await tool.execute(args, { root: workspace });
    return out.isError ? '' : out.content.map((c) => c.text).join('');
  };
  const modes: Record<string, (q: Question) => Promise<string[]>> = {
    grep: async (q) => filesOf(await run(search, { query: (q.kind === 'name' ? [q.ask] : wordsOf(q.ask)).map(escape).join('|'), mode: 'grep', limit: 100 })),
    text: async (q) => filesOf(await run(search, { query: q.ask, limit: 5 })),
    symbol: async (q) => {
      const files: string[] = [];
      for (const word of q.kind === 'name' ? [q.ask] : wordsOf(q.ask).filter((w) => /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(w))) {
        for (const file of filesOf(await run(search, { query: word, mode: 'symbol', limit: 20 }))) if (!files.includes(file)) files.push(file);
        if (files.length >= 5) break;
      }
      return files;
    },
    'text+map': async (q) => {
      const best = filesOf(await run(search, { query: q.ask, limit: 5 })).slice(0, 3);
      const map = mapFilesOf(await run(repoMap, { focus: [...best, ...wordsOf(q.ask)].slice(0, 20) }));
      return [...best, ...map.filter((f) => !best.includes(f))];
    },
    ...(semantic ? { semantic: async (q: Question) => filesOf(await run(search, { query: q.ask, mode: 'semantic', limit: 5 })) } : {}),
  };
  const recall: Record<string, number> = {};
  const byKind: Record<string, Record<string, number>> = {};
  for (const [mode, ask] of Object.entries(modes)) {
    let sum = 0;
    const kinds: Record<string, { sum: number; n: number }> = {};
    for (const q of questions) {
      const top = (await ask(q)).slice(0, 5);
      const score = q.answers.filter((a) => top.includes(a)).length / Math.min(q.answers.length, 5);
      sum += score;
      kinds[q.kind] ??= { sum: 0, n: 0 };
      kinds[q.kind]!.sum += score;
      kinds[q.kind]!.n++;
    }
    recall[mode] = Math.round((sum / questions.length) * 1000) / 1000;
    for (const [kind, { sum: s, n }] of Object.entries(kinds)) (byKind[kind] ??= {})[mode] = Math.round((s / n) * 1000) / 1000;
  }
  semantic?.dispose();
  index.dispose();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    corpus: name,
    questions: questions.length,
    build_ms: Math.round(buildMs),
    ...(embedMs !== null ? { embed_ms: Math.round(embedMs) } : {}),
    recall_at_5: recall,
    by_kind: byKind,
  };
}

const work = mkdtempSync(join(tmpdir(), 'amber-search-quality-'));
try {
  const results: Awaited<ReturnType<typeof measure>>[] = [];
  if (values.corpus === 'amber' || values.corpus === 'both') {
    const into = join(work, 'amber');
    results.push(await measure('amber', into, amberCorpus(into)));
  }
  if (values.corpus === 'generated' || values.corpus === 'both') {
    const into = join(work, 'generated');
    results.push(await measure('generated', into, generatedCorpus(into)));
  }
  for (const r of results) {
    console.log(`${r.corpus}: ${r.questions} questions, index built in ${r.build_ms} ms${r.embed_ms !== undefined ? `, embedded in ${r.embed_ms} ms` : ''}`);
    for (const [mode, value] of Object.entries(r.recall_at_5)) {
      const kinds = Object.entries(r.by_kind)
        .map(([kind, m]) => `${kind} ${m[mode]}`)
        .join(', ');
      console.log(`  recall@5 ${mode.padEnd(9)} ${value}  (${kinds})`);
    }
  }
  const best = (['grep', 'text', 'symbol', 'text+map'] as const)
    .map((mode) => ({ mode, mean: results.reduce((s, r) => s + (r.recall_at_5[mode] ?? 0), 0) / results.length }))
    .sort((a, b) => b.mean - a.mean)[0]!;
  if (!embeddings.config)
    console.log(
      'semantic: not measured (no embeddings endpoint: set AMBER_EMBEDDINGS_URL and AMBER_EMBEDDINGS_MODEL, and AMBER_EMBEDDINGS_KEY if it needs one)',
    );
  console.log(`best mode over both corpora: ${best.mode}`);
  console.log(JSON.stringify({ results, best: best.mode }));
} finally {
  rmSync(work, { recursive: true, force: true });
}
