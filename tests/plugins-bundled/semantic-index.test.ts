import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  codeChunks,
  EmbeddingClient,
  embeddingModelKey,
  SearchIndexService,
  SemanticIndex,
  type SemanticStatus,
  semanticLines,
} from '../../src/plugins/workspace-search/index.ts';
import { type LoopbackEmbeddings, startLoopbackEmbeddings } from '../fixtures/loopback-embeddings.ts';

let server: LoopbackEmbeddings;
let dir: string;
let workspace: string;
let lexical: SearchIndexService | null = null;
const open: SemanticIndex[] = [];

beforeAll(async () => {
  server = await startLoopbackEmbeddings();
});
afterAll(() => server.close());

beforeEach(() => {
  server.behaviour = 'ok';
  server.requests.length = 0;
  dir = mkdtempSync(join(tmpdir(), 'amber-semantic-'));
  workspace = join(dir, 'ws');
  mkdirSync(join(workspace, 'src', 'billing'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'billing', 'charge-customer.ts'), 'export function chargeCustomer(amount: number) {\n  return pay(amount);\n}\n');
  writeFileSync(join(workspace, 'src', 'http.ts'), 'export function parseHeader(raw: string) {\n  return raw.split(":"); // http header\n}\n');
  writeFileSync(join(workspace, 'src', 'login.ts'), 'export async function signIn(password: string) {\n  return authenticate(password);\n}\n');
  writeFileSync(join(workspace, 'notes.md'), '# Notes\n\nThe invoice template and the login page live elsewhere.\n');
});

afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
  lexical?.dispose();
  lexical = null;
  rmSync(dir, { recursive: true, force: true });
});

function start(options: { dimensions?: number; retryMs?: number; timeoutMs?: number; queryTimeoutMs?: number } = {}) {
  lexical ??= new SearchIndexService({ root: workspace, file: join(dir, 'index.sqlite'), debounceMs: 10 });
  const config = { baseUrl: server.url, model: 'concepts', ...(options.dimensions ? { dimensions: options.dimensions } : {}) };
  const waiters: { test: (s: SemanticStatus) => boolean; resolve: () => void }[] = [];
  const semantic: SemanticIndex = new SemanticIndex({
    root: workspace,
    file: join(dir, 'index.sqlite'),
    embedder: new EmbeddingClient(config, { timeoutMs: options.timeoutMs ?? 5000 }),
    modelKey: embeddingModelKey(config),
    lexical,
    pollMs: 20,
    retryMs: options.retryMs ?? 60_000,
    batchSize: 2,
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    onChange: () => {
      for (const w of waiters.filter((x) => x.test(semantic.status))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
  });
  open.push(semantic);
  /** Resolves when the status next fits (at once when it does now). */
  const until = (test: (s: SemanticStatus) => boolean) =>
    test(semantic.status) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }));
  return { semantic, until };
}

const ready = (s: SemanticStatus) => s.state === 'ready';
const failed = (s: SemanticStatus) => s.state === 'failed';

describe('the semantic index', () => {
  it('finds code by meaning that the words index misses, nearest first, within a folder when asked', async () => {
    const { semantic, until } = start();
    await until(ready);
    expect(semantic.status).toEqual({ state: 'ready', files: 4, chunks: 4 });
    const found = await semantic.search('invoice', null, 5);
    expect(found.files.map((f) => f.path).slice(0, 2)).toEqual(['src/billing/charge-customer.ts', 'notes.md']);
    expect(found.files[0]!.hits[0]).toMatchObject({ line: 1, text: 'export function chargeCustomer(amount: number) {', endLine: 3 });
    expect(found.files[0]!.hits[0]!.similarity).toBeGreaterThan(0.9);
    // The words index finds only the file that says "invoice".
    expect((await lexical!.searchText('invoice', null, 5)).files.map((f) => f.path)).toEqual(['notes.md']);
    expect((await semantic.search('sign in with a password', null, 1)).files.map((f) => f.path)).toEqual(['src/login.ts']);
    expect((await semantic.search('invoice', 'src', 5)).files.map((f) => f.path)).not.toContain('notes.md');
    expect((await semantic.search('invoice', 'src/billing', 5)).files.map((f) => f.path)).toEqual(['src/billing/charge-customer.ts']);
  });

  it('embeds again only the files whose text changed, and drops the vectors of a deleted file', async () => {
    const { semantic, until } = start();
    await until(ready);
    const before = server.embedded;
    // Touched but not changed: recorded, not embedded.
    utimesSync(join(workspace, 'src', 'http.ts'), new Date(), new Date(Date.now() + 5000));
    writeFileSync(join(workspace, 'src', 'login.ts'), 'export async function signIn(password: string) {\n  return retry(() => authenticate(password));\n}\n');
    await lexical!.flush();
    await until((s) => s.state === 'embedding');
    await until(ready);
    expect(server.embedded - before).toBe(1);
    expect(server.requests.at(-1)!.inputs[0]).toMatch(/^src\/login\.ts\n/);
    rmSync(join(workspace, 'notes.md'));
    await lexical!.flush();
    await until((s) => s.state === 'ready' && s.files === 3);
    expect((await semantic.search('invoice', null, 5)).files.map((f) => f.path)).not.toContain('notes.md');
  });

  it('keeps its vectors when the plugin starts again: nothing unchanged is embedded again', async () => {
    const first = start();
    await first.until(ready);
    first.semantic.dispose();
    lexical!.dispose();
    lexical = null;
    const before = server.requests.length;
    const again = start();
    await again.until(ready);
    expect(again.semantic.status).toEqual({ state: 'ready', files: 4, chunks: 4 });
    expect(server.requests.length).toBe(before);
    expect((await again.semantic.search('invoice', 'src', 1)).files.map((f) => f.path)).toEqual(['src/billing/charge-customer.ts']);
  });

  it('makes every vector again for another model or dimensions, in the same file', async () => {
    const first = start();
    await first.until(ready);
    first.semantic.dispose();
    const before = server.embedded;
    const second = start({ dimensions: 4 });
    await second.until(ready);
    expect(server.embedded - before).toBe(4);
    expect(server.requests.at(-1)!.dimensions).toBe(4);
    expect((await second.semantic.search('invoice', null, 1)).files.map((f) => f.path)).toEqual(['src/billing/charge-customer.ts']);
  });

  it('keeps what it made when the endpoint fails, says why, and goes on when it answers again', async () => {
    const { semantic, until } = start({ retryMs: 50 });
    await until(ready);
    server.behaviour = 'status500';
    writeFileSync(join(workspace, 'src', 'photos.ts'), 'export function thumbnail(image: Buffer) {\n  return image;\n}\n');
    await lexical!.flush();
    await until(failed);
    const status = semantic.status as Extract<SemanticStatus, { state: 'failed' }>;
    expect(status.message).toBe('The embeddings endpoint answered 500: {"error":{"message":"the model is overloaded"}}');
    expect(status.files).toBe(4);
    // The query cannot be embedded either: mode text answers, saying why.
    const down = await semanticLines(semantic, 'invoice', null, 5);
    expect(down).toMatchObject({
      fallback: true,
      notes: [
        '[The query could not be embedded: The embeddings endpoint answered 500: {"error":{"message":"the model is overloaded"}} These results come from mode text.]',
      ],
    });
    server.behaviour = 'ok';
    await until((s) => s.state === 'ready' && s.files === 5);
    expect((await semantic.search('a picture', null, 1)).files.map((f) => f.path)).toEqual(['src/photos.ts']);
  });

  it('stops with a sentence for each broken answer, keeping every vector it had and still searching them', async () => {
    const first = start();
    await first.until(ready);
    first.semantic.dispose();
    writeFileSync(join(workspace, 'src', 'photos.ts'), 'export function thumbnail(image: Buffer) {\n  return image;\n}\n');
    writeFileSync(join(workspace, 'src', 'timer.ts'), 'export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));\n');
    await lexical!.flush();
    const cases: [typeof server.behaviour, RegExp][] = [
      ['nan', /^The embeddings endpoint's answer is not JSON: /],
      ['infinite', /^The embeddings endpoint's answer is not an embeddings response \(data\.0\.embedding\.9: .*Infinity\)\.$/],
      ['huge', /^The embeddings endpoint's answer was over 448 KB/],
      ['missingVector', /^The embeddings endpoint answered 1 vectors for 2 inputs\.$/],
      ['mixedDimensions', /^The embeddings endpoint answered vectors of different lengths \(9 and 10\)\.$/],
      ['notJson', /^The embeddings endpoint's answer is not JSON: <html>Gateway error<\/html>$/],
      ['zeros', /^The embeddings endpoint answered a vector of zeros/],
      ['status401', /^The embeddings endpoint refused the request \(401\): check the API key\./],
    ];
    for (const [behaviour, message] of cases) {
      server.behaviour = behaviour;
      const { semantic, until } = start();
      await until(failed);
      expect((semantic.status as { message: string }).message, behaviour).toMatch(message);
      expect(semantic.counts(), behaviour).toEqual({ files: 4, chunks: 4 });
      server.behaviour = 'ok';
      expect(
        (await semantic.search('invoice', 'src', 1)).files.map((f) => f.path),
        behaviour,
      ).toEqual(['src/billing/charge-customer.ts']);
      semantic.dispose();
    }
  });

  it('stops with a sentence, losing nothing, when the endpoint answers vectors of another length than it stored', async () => {
    const { semantic, until } = start();
    await until(ready);
    server.behaviour = 'wrongDimensions';
    writeFileSync(join(workspace, 'src', 'timer.ts'), 'export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));\n');
    await lexical!.flush();
    await until(failed);
    expect(semantic.status).toMatchObject({
      state: 'failed',
      message: 'The embeddings endpoint answered vectors of 12 dimensions, and the index holds vectors of 9: Rebuild the index to make them all again.',
      files: 4,
    });
    expect(semantic.counts()).toEqual({ files: 4, chunks: 4 });
  });

  it('never holds up a words search while the endpoint is slow, and gives up on it at its time limit', async () => {
    server.behaviour = 'slow';
    const { semantic, until } = start({ timeoutMs: 400 });
    await until((s) => s.state === 'embedding');
    const started = performance.now();
    expect((await lexical!.searchText('header', null, 5)).files.map((f) => f.path)).toEqual(['src/http.ts']);
    expect(performance.now() - started).toBeLessThan(300);
    await until(failed);
    expect(semantic.status).toMatchObject({ message: 'The embeddings endpoint did not answer within 400 ms.', files: 0 });
    expect(await semanticLines(semantic, 'invoice', null, 5)).toMatchObject({
      fallback: true,
      notes: ['[Semantic search has no vectors yet: The embeddings endpoint did not answer within 400 ms. These results come from mode text.]'],
    });
  });
});

describe('where sqlite-vec cannot load', () => {
  it('says semantic search cannot run here, and text answers, while the words index works', async () => {
    lexical = new SearchIndexService({ root: workspace, file: join(dir, 'index.sqlite'), watch: false });
    const semantic = new SemanticIndex({
      root: workspace,
      file: join(dir, 'index.sqlite'),
      embedder: new EmbeddingClient({ baseUrl: server.url, model: 'concepts' }),
      modelKey: 'k',
      lexical,
      openStore: () => {
        throw new Error('Unsupported platform for sqlite-vec, on a freebsd-x64 machine.');
      },
    });
    open.push(semantic);
    expect(semantic.status).toEqual({
      state: 'unavailable',
      message: 'Semantic search cannot run here: Unsupported platform for sqlite-vec, on a freebsd-x64 machine.',
    });
    expect(await semanticLines(semantic, 'invoice', null, 5)).toMatchObject({
      fallback: true,
      notes: ['[Semantic search cannot run here: Unsupported platform for sqlite-vec, on a freebsd-x64 machine. These results come from mode text.]'],
    });
    await lexical.ready;
    expect((await lexical.searchText('header', null, 5)).files.map((f) => f.path)).toEqual(['src/http.ts']);
    expect(server.requests).toEqual([]);
  });
});

describe('a slow question', () => {
  it('is given up at its own time limit, and text answers with a note saying why', async () => {
    const { semantic, until } = start({ queryTimeoutMs: 300 });
    await until(ready);
    server.behaviour = 'slow';
    const started = performance.now();
    expect(await semanticLines(semantic, 'invoice', null, 5)).toMatchObject({
      fallback: true,
      notes: ['[The query could not be embedded: The embeddings endpoint did not answer the question within 0.3 s. These results come from mode text.]'],
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(semantic.status.state).toBe('ready');
  });
});

/** `n` lines of a function's body. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `  const step${i} = ${i};`).join('\n');

describe('chunks of a real file', () => {
  it('begin where the index found a definition, so a function is found with its own lines', async () => {
    writeFileSync(
      join(workspace, 'src', 'mixed.ts'),
      `export function parseHeaderLine(raw: string) {\n${filler(25)}\n  return raw;\n}\n\nexport function takePhoto(image: string) {\n${filler(25)}\n  return image;\n}\n`,
    );
    const { semantic, until } = start();
    await until(ready);
    const [hits] = (await semantic.search('thumbnail picture', 'src/mixed.ts', 1)).files.map((f) => f.hits);
    expect(hits!.map(({ line, endLine, text }) => ({ line, endLine, text }))).toEqual([
      { line: 1, endLine: 29, text: 'export function parseHeaderLine(raw: string) {' },
      { line: 30, endLine: 57, text: 'export function takePhoto(image: string) {' },
    ]);
    expect(hits![1]!.similarity).toBeGreaterThan(0.9);
    expect(hits![0]!.similarity).toBeLessThan(0.1);
  });
});

describe('the semantic index and links', () => {
  it('never embeds or shows a file that became a link out of the workspace, and drops its vectors', async () => {
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'secret.ts'), 'export const outsideSecret = "invoice billing payment";\n');
    const { semantic, until } = start();
    await until(ready);
    rmSync(join(workspace, 'src', 'login.ts'));
    symlinkSync(join(dir, 'outside', 'secret.ts'), join(workspace, 'src', 'login.ts'));
    rmSync(join(workspace, 'src', 'billing'), { recursive: true });
    symlinkSync(join(dir, 'outside'), join(workspace, 'src', 'billing'));
    await lexical!.flush();
    await until((s) => s.state === 'ready' && s.files === 2);
    const found = await semantic.search('invoice', null, 10);
    expect(found.files.map((f) => f.path).sort()).toEqual(['notes.md', 'src/http.ts']);
    expect(server.requests.flatMap((r) => r.inputs).some((input) => input.includes('outsideSecret'))).toBe(false);
  });
});

describe('chunks', () => {
  it('cut a file into 40-line windows that start with its path, leaving out blank ones', () => {
    const text = [...Array.from({ length: 45 }, (_, i) => `line ${i + 1}`), ...Array.from({ length: 40 }, () => ''), 'last'].join('\n');
    expect(codeChunks('a/b.ts', `${text}\n`).map(({ startLine, endLine, text: t }) => [startLine, endLine, t.split('\n')[0], t.split('\n')[1]])).toEqual([
      [1, 40, 'a/b.ts', 'line 1'],
      [41, 80, 'a/b.ts', 'line 41'],
      [81, 86, 'a/b.ts', ''],
    ]);
    expect(codeChunks('empty.ts', '')).toEqual([{ startLine: 1, endLine: 1, text: 'empty.ts' }]);
    // Where the index knows the definitions, a chunk ends before the last one past its first 12 lines.
    const eighty = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(codeChunks('d.ts', eighty, [1, 5, 20, 31, 55]).map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 30],
      [31, 54],
      [55, 80],
    ]);
    expect(codeChunks('d.ts', eighty, [5, 41, 0, -3, 1.5]).map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 40],
      [41, 80],
    ]);
    expect(codeChunks('long.ts', 'x'.repeat(10_000))[0]!.text.length).toBe(2000);
  });
});
