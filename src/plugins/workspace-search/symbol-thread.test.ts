import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { SearchIndexService } from './search-index-service.ts';
import { SymbolThread } from './symbol-thread.ts';

const dirs: string[] = [];
const threads: SymbolThread[] = [];
afterEach(() => {
  for (const thread of threads.splice(0)) thread.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'amber-symbol-thread-'));
  dirs.push(dir);
  return dir;
};
const thread = (options: ConstructorParameters<typeof SymbolThread>[0] = {}) => {
  const made = new SymbolThread(options);
  threads.push(made);
  return made;
};

/**
 * A worker that serves symbols like the real one, file after file, except that a file holding CRASH_WORKER ends it,
 * one holding HANG_WORKER never answers, one holding LIE_WORKER gets an answer that is not a reply, and one holding
 * FORGE_WORKER (asked to be read) gets a reply whose bytes are not bytes.
 */
function hostileWorker(): URL {
  const file = join(tempDir(), 'hostile-worker.mjs');
  writeFileSync(
    file,
    `import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { serveSymbols } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'serve-symbols.ts')).href)};
let listener;
let replied;
serveSymbols({ on: (_event, l) => (listener = l), postMessage: (m, transfer) => { parentPort.postMessage(m, transfer); replied(); } });
let queue = Promise.resolve();
parentPort.on('message', (m) => {
  queue = queue.then(() => new Promise((resolve) => {
    const text = typeof m.text === 'string' ? m.text : readFileSync(m.file, 'utf8');
    if (text.includes('CRASH_WORKER')) process.exit(3);
    if (text.includes('HANG_WORKER')) for (;;) {}
    if (text.includes('LIE_WORKER')) return resolve(parentPort.postMessage({ id: m.id, tags: 'all of them' }));
    if (text.includes('FORGE_WORKER')) return resolve(parentPort.postMessage({ id: m.id, tags: [], read: { size: 1, mtimeMs: 1, bytes: 'not bytes', parts: 'forged' } }));
    replied = resolve;
    listener(m);
  }));
});
`,
  );
  return pathToFileURL(file);
}

/** Long enough for a new worker to start and load a grammar on a loaded machine; the hanging file waits it out. */
const TIMEOUT_MS = 3000;

const names = (tags: { kind: string; name: string }[]) => tags.filter((t) => t.kind === 'def').map((t) => t.name);

test('the grammars run in a worker thread that starts with the first file and ends when idle', async () => {
  let stopped!: () => void;
  const stop = new Promise<void>((resolve) => (stopped = resolve));
  const symbols = thread({ idleMs: 50, onStop: () => stopped() });
  expect(symbols.running).toBe(false);
  expect(await symbols.tags('notes.md', '# function open() {}')).toEqual([]);
  expect(symbols.running).toBe(false);
  const [ts, py] = await Promise.all([
    symbols.tags('a.ts', 'export function openStore() {}\nexport class Store {}\n'),
    symbols.tags('b.py', 'def load_rows():\n    pass\n'),
  ]);
  expect(names(ts)).toEqual(['openStore', 'Store']);
  expect(names(py)).toEqual(['load_rows']);
  expect(symbols.running).toBe(true);
  await stop;
  expect(symbols.running).toBe(false);
  // The next file starts a new worker.
  expect(names(await symbols.tags('c.go', 'package main\n\nfunc Serve() {}\n'))).toEqual(['Serve']);
});

test('release ends the worker at once when no file waits, and not while one does', async () => {
  const symbols = thread({ idleMs: 60_000 });
  const first = symbols.tags('a.ts', 'export function first() {}\n');
  const second = symbols.tags('b.ts', 'export function second() {}\n');
  expect(names(await first)).toEqual(['first']);
  symbols.release();
  expect(names(await second)).toEqual(['second']);
  expect(symbols.running).toBe(true);
  symbols.release();
  expect(symbols.running).toBe(false);
});

test('a file that crashes the worker, hangs it or gets a false answer has no symbols, and the files after it have theirs', async () => {
  let stops = 0;
  const symbols = thread({ script: hostileWorker(), timeoutMs: TIMEOUT_MS, onStop: () => stops++ });
  const results = await Promise.all([
    symbols.tags('a.ts', 'export function before() {}\n'),
    symbols.tags('crash.ts', 'export function crashed() {} // CRASH_WORKER\n'),
    symbols.tags('b.ts', 'export function afterCrash() {}\n'),
    symbols.tags('hang.ts', 'export function hung() {} // HANG_WORKER\n'),
    symbols.tags('c.ts', 'export function afterHang() {}\n'),
    symbols.tags('lie.ts', 'export function lied() {} // LIE_WORKER\n'),
    symbols.tags('d.ts', 'export function afterLie() {}\n'),
  ]);
  expect(results.map(names)).toEqual([['before'], [], ['afterCrash'], [], ['afterHang'], [], ['afterLie']]);
  expect(stops).toBe(3);
});

test('a build goes on past a file that crashes the symbol worker: every file is searchable, the others have their symbols', async () => {
  const root = tempDir();
  mkdirSync(join(root, 'src'));
  for (let i = 0; i < 30; i++) writeFileSync(join(root, 'src', `file${i}.ts`), `export function shared${i}() {}\n// plainword${i}\n`);
  writeFileSync(join(root, 'src', 'hostile.ts'), 'export function hostileOne() {}\n// CRASH_WORKER plainwordhostile\n');
  writeFileSync(join(root, 'src', 'stuck.ts'), 'export function stuckOne() {}\n// HANG_WORKER plainwordstuck\n');
  writeFileSync(join(root, 'src', 'liar.ts'), 'export function liarOne() {}\n// LIE_WORKER plainwordliar\n');
  writeFileSync(join(root, 'src', 'forger.ts'), 'export function forgerOne() {}\n// FORGE_WORKER plainwordforger\n');
  const index = new SearchIndexService({
    root,
    file: join(tempDir(), 'index.sqlite'),
    watch: false,
    tagger: thread({ script: hostileWorker(), timeoutMs: TIMEOUT_MS }),
  });
  try {
    await index.ready;
    for (const word of ['plainword0', 'plainword29', 'plainwordhostile', 'plainwordstuck', 'plainwordliar', 'plainwordforger']) {
      expect((await index.searchText(word, null, 5)).files.map((f) => f.path)).toHaveLength(1);
    }
    for (const name of ['shared0', 'shared15', 'shared29']) {
      expect((await index.searchSymbol(name, null, 5)).hits[0]).toMatchObject({ kind: 'def', name });
    }
    expect((await index.searchSymbol('hostileOne', null, 5)).hits.filter((h) => h.kind === 'def')).toEqual([]);
    expect((await index.searchSymbol('stuckOne', null, 5)).hits.filter((h) => h.kind === 'def')).toEqual([]);
    expect((await index.searchSymbol('liarOne', null, 5)).hits.filter((h) => h.kind === 'def')).toEqual([]);
    expect((await index.searchSymbol('forgerOne', null, 5)).hits.filter((h) => h.kind === 'def')).toEqual([]);
    // The forged reply's words were never indexed: the file was read again here.
    expect((await index.searchText('forged', null, 5)).files).toEqual([]);
  } finally {
    index.dispose();
  }
});
