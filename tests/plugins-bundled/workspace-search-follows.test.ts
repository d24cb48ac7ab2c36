// The workspace search plugin in its own process follows what changes under it: ignore rules (each folder's
// .gitignore and .git/info/exclude) and folders of many files moved or deleted; and it never indexes its own data
// folder when that lies inside the workspace. Every step is a real file change and a search through the tool.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { indexFileName } from '../../src/plugins/workspace-search/index.ts';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';
import { indexedSearch, searchableWithin as searchableWithinMs, toolText } from './search-calls.ts';

let dir: ReturnType<typeof tempDir>;
let workspace: string;
let dataDir: string;
let runtime: BundledRuntime | null = null;

beforeEach(() => {
  dir = tempDir('amber-search-follows-');
  workspace = join(dir.path, 'ws');
  dataDir = join(dir.path, 'search-data');
  for (let i = 0; i < 200; i++) {
    const folder = join(workspace, 'src', `module${i % 10}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file${i}.ts`), `export const filler${i} = ${i}; // plain filler\n`);
  }
  mkdirSync(join(workspace, 'src', 'billing'));
  writeFileSync(join(workspace, 'src', 'billing', 'invoice.ts'), 'export const koalaInvoice = 1;\n');
  writeFileSync(join(workspace, 'src', 'billing', 'draft.md'), 'koalaDraft notes\n');
  writeFileSync(join(workspace, 'build.log'), 'koalaLog line\n');
  mkdirSync(join(workspace, 'vendor'));
  writeFileSync(join(workspace, 'vendor', 'lib.ts'), 'export const koalaVendor = 1;\n');
  writeFileSync(join(workspace, 'top.ts'), 'export const koalaTop = 1;\n');
  writeFileSync(join(workspace, '.gitignore'), '*.log\nvendor/\n');
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  dir.remove();
});

async function start(): Promise<BundledRuntime> {
  runtime = await startBundled(['workspace-search'], { dataDir: dir.path, config: new Map([['workspace_search', { dataDir }]]) });
  return runtime;
}

const scope = () => ({ workspace, dataDir });
const text = toolText;
const search = (r: BundledRuntime, args: Record<string, unknown>) => indexedSearch(r, args, scope());
const searchableWithin = (r: BundledRuntime, args: Record<string, unknown>, found: (out: string) => boolean, since: number, withinMs = 1000) =>
  searchableWithinMs(r, args, found, since, scope(), withinMs);

const finds = (path: string) => (out: string) => out.split('\n').some((line) => line.startsWith(`${path}:`));
const none = (out: string) => out.startsWith('No matches');

it('applies a changed .gitignore within a second: newly ignored files leave the index, newly let-in ones are found', async () => {
  const r = await start();
  expect(await search(r, { query: 'koalaLog' })).toMatch(/^No matches/);
  expect(await search(r, { query: 'koalaVendor' })).toMatch(/^No matches/);
  expect(await search(r, { query: 'koalaInvoice' })).toMatch(/^src\/billing\/invoice\.ts:1: /);

  // The root's rules: *.log let in, vendor/ still out, top.ts newly out.
  let since = performance.now();
  writeFileSync(join(workspace, '.gitignore'), 'vendor/\n/top.ts\n');
  await searchableWithin(r, { query: 'koalaLog' }, finds('build.log'), since);
  await searchableWithin(r, { query: 'koalaTop' }, none, since);
  expect(await search(r, { query: 'alaLo', mode: 'substring' })).toBe('build.log:1: koalaLog line');
  expect(await search(r, { query: 'koalaVendor' })).toMatch(/^No matches/);

  // A nested .gitignore made, changed and deleted: its folder follows each time, the rest stays.
  since = performance.now();
  writeFileSync(join(workspace, 'src', 'billing', '.gitignore'), '*.ts\n');
  await searchableWithin(r, { query: 'koalaInvoice' }, none, since);
  expect(await search(r, { query: 'koalaDraft' })).toMatch(/^src\/billing\/draft\.md:1: /);
  since = performance.now();
  writeFileSync(join(workspace, 'src', 'billing', '.gitignore'), '*.md\n');
  await searchableWithin(r, { query: 'koalaInvoice' }, finds('src/billing/invoice.ts'), since);
  await searchableWithin(r, { query: 'koalaDraft' }, none, since);
  since = performance.now();
  rmSync(join(workspace, 'src', 'billing', '.gitignore'));
  await searchableWithin(r, { query: 'koalaDraft' }, finds('src/billing/draft.md'), since);
  expect(await search(r, { query: 'filler7' })).toMatch(/^src\/module7\/file7\.ts:1: /);

  // The root's .gitignore deleted: everything it left out is let in.
  since = performance.now();
  rmSync(join(workspace, '.gitignore'));
  await searchableWithin(r, { query: 'koalaVendor' }, finds('vendor/lib.ts'), since);
  await searchableWithin(r, { query: 'koalaTop' }, finds('top.ts'), since);
});

it('applies .git/info/exclude as it is made, changed and removed, below the root .gitignore', async () => {
  mkdirSync(join(workspace, '.git'));
  const r = await start();
  expect(await search(r, { query: 'koalaInvoice' })).toMatch(/^src\/billing\/invoice\.ts:1: /);
  let since = performance.now();
  mkdirSync(join(workspace, '.git', 'info'));
  writeFileSync(join(workspace, '.git', 'info', 'exclude'), 'src/billing/\n');
  await searchableWithin(r, { query: 'koalaInvoice' }, none, since);
  expect(await search(r, { query: 'filler7' })).toMatch(/^src\/module7\/file7\.ts:1: /);

  // The root's .gitignore wins over the exclude file.
  since = performance.now();
  writeFileSync(join(workspace, '.gitignore'), '*.log\nvendor/\n!src/billing/\n');
  await searchableWithin(r, { query: 'koalaInvoice' }, finds('src/billing/invoice.ts'), since);
  since = performance.now();
  writeFileSync(join(workspace, '.git', 'info', 'exclude'), '*.md\n');
  await searchableWithin(r, { query: 'koalaDraft' }, none, since);
  since = performance.now();
  rmSync(join(workspace, '.git'), { recursive: true });
  await searchableWithin(r, { query: 'koalaDraft' }, finds('src/billing/draft.md'), since);
});

/** The paths the workspace's index holds, read from its SQLite file as the plugin left it. */
function indexedPaths(): string[] {
  const indexes = join(dataDir, 'indexes');
  const [file] = readdirSync(indexes).filter((f) => f.endsWith('.sqlite'));
  const db = new Database(join(indexes, file!), { readonly: true });
  try {
    return (db.prepare('SELECT path FROM files ORDER BY path').all() as { path: string }[]).map((row) => row.path);
  } finally {
    db.close();
  }
}

const indexedUnder = (folder: string) => indexedPaths().filter((p) => p.startsWith(`${folder}/`)).length;

it('never indexes the data folder when it lies inside the workspace, nor what it writes there as it searches', async () => {
  dataDir = join(workspace, '.amber-data');
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  writeFileSync(join(dataDir, 'sessions', 'notes.md'), 'koalaPrivate session text\n');
  const r = await start();
  expect(await search(r, { query: 'koalaInvoice' })).toMatch(/^src\/billing\/invoice\.ts:1: /);
  writeFileSync(join(dataDir, 'sessions', 'later.md'), 'koalaLater written while the index watches\n');
  const since = performance.now();
  writeFileSync(join(workspace, 'top.ts'), 'export const koalaFresh = 2;\n');
  await searchableWithin(r, { query: 'koalaFresh' }, finds('top.ts'), since);
  for (const mode of ['text', 'substring']) {
    for (const word of ['koalaPrivate', 'koalaLater']) expect(await search(r, { query: word, mode }), `${mode} ${word}`).toMatch(/^No matches/);
  }
  const paths = indexedPaths();
  expect(paths).toContain('top.ts');
  expect(paths.filter((p) => p.startsWith('.amber-data'))).toEqual([]);
});

it('follows a folder of a thousand files moved, edited inside its new place and deleted, within a second each', async () => {
  mkdirSync(join(workspace, 'bulk'));
  for (let i = 0; i < 1000; i++) writeFileSync(join(workspace, 'bulk', `item${i}.ts`), `export const wombatBulk${i} = ${i};\n`);
  const r = await start();
  expect(await search(r, { query: 'wombatBulk500' })).toBe('bulk/item500.ts:1: export const wombatBulk500 = 500;');
  expect(indexedUnder('bulk')).toBe(1000);

  let since = performance.now();
  renameSync(join(workspace, 'bulk'), join(workspace, 'moved'));
  await searchableWithin(r, { query: 'wombatBulk500' }, (out) => out === 'moved/item500.ts:1: export const wombatBulk500 = 500;', since);
  expect([indexedUnder('bulk'), indexedUnder('moved')]).toEqual([0, 1000]);

  // The watcher names what changes inside the moved folder by its new path.
  since = performance.now();
  writeFileSync(join(workspace, 'moved', 'item7.ts'), 'export const wombatEdited = 7;\n');
  await searchableWithin(r, { query: 'wombatEdited' }, finds('moved/item7.ts'), since);

  since = performance.now();
  rmSync(join(workspace, 'moved'), { recursive: true });
  await searchableWithin(r, { query: 'wombatBulk500' }, none, since);
  expect(indexedUnder('moved')).toBe(0);
  expect(await search(r, { query: 'koalaInvoice' })).toMatch(/^src\/billing\/invoice\.ts:1: /);
});

/**
 * Stops the plugin and spoils the pages of the named tables (opening the file checks its header and schema, not
 * these), found by SQLite's own page map, so the damage lands there however the build laid the file out.
 */
async function spoilIndex(r: BundledRuntime, tables: readonly string[]): Promise<void> {
  await r.close();
  const indexes = join(dataDir, 'indexes');
  const file = join(indexes, readdirSync(indexes).find((f) => f.endsWith('.sqlite'))!);
  expect(statSync(file).size).toBeGreaterThan(64 * 1024);
  const db = new Database(file);
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const pages = db
    .prepare(`SELECT pageno FROM dbstat WHERE name IN (${tables.map(() => '?').join(', ')})`)
    .pluck()
    .all(...tables) as number[];
  db.close();
  expect(pages.length).toBeGreaterThan(2);
  const fd = openSync(file, 'r+');
  for (const page of pages) writeSync(fd, Buffer.alloc(1024, 0x5a), 0, 1024, (page - 1) * pageSize);
  closeSync(fd);
}

const DAMAGED = '[The search index was found damaged and is being built again from the workspace; these results come from grep.]';

it('builds again an index whose pages turn out damaged in use: repo_map says so, search answers from grep meanwhile', async () => {
  let r = await start();
  expect(await search(r, { query: 'koalaInvoice' })).toMatch(/^src\/billing\/invoice\.ts:1: /);
  // What repo_map reads.
  await spoilIndex(r, ['symbols', 'symbols_name', 'symbols_file']);
  r = await start();
  expect(await search(r, { query: 'zzz', path: 'src/module0' })).toMatch(/^No matches/);
  const map = await r.service.registries.tools.execute('repo_map', {}, undefined, { sessionId: 's1', workspace, denied: [dataDir] });
  expect(text(map)).toBe(
    'The search index was found damaged and is being built again from the workspace; the map can be drawn once it is done. Use find and search meanwhile.',
  );
  expect(await search(r, { query: 'filler9', mode: 'symbol' })).toMatch(/^Definitions of filler9:\nsrc\/module9\/file9\.ts:1: /);

  // What a substring search reads.
  await spoilIndex(r, ['grams_data', 'grams_idx']);
  r = await start();
  const answers: string[] = [];
  for (const args of [{ query: 'koalaInvoice' }, { query: 'ler12', mode: 'substring' }, { query: 'filler9', mode: 'symbol' }])
    answers.push(await search(r, args));
  const told = answers.findIndex((a) => a.includes(DAMAGED));
  expect(told, answers.join('\n---\n')).toBeGreaterThanOrEqual(0);
  expect(answers[told]).toMatch(/^src\/module\d\/file12\d?\.ts:1: /);
  // Built again: every mode answers from the new index, which holds every file.
  expect(await search(r, { query: 'ler12', mode: 'substring', path: 'src/module2' })).toMatch(/^src\/module2\/file12\.ts:1: export const filler12 = 12;/);
  expect(await search(r, { query: 'filler9', mode: 'symbol' })).toMatch(/^Definitions of filler9:\nsrc\/module9\/file9\.ts:1: /);
  expect(indexedPaths()).toHaveLength(204);
});

it('stops a build still going when the agent searches another workspace, says so in Settings, and goes on there later', async () => {
  const big = join(dir.path, 'big');
  mkdirSync(big);
  for (let i = 0; i < 3000; i++) writeFileSync(join(big, `f${i}.ts`), `export const bigValue${i} = ${i}; // ${'filler '.repeat(40)}\n`);
  const r = await start();
  const inBig = (args: Record<string, unknown>) =>
    r.service.registries.tools.execute('search', args, undefined, { sessionId: 's2', workspace: big, denied: [dataDir] });
  // The first call in the big workspace starts its build; once its index file is made, the agent searches the other one.
  const first = inBig({ query: 'bigValue2999' });
  const bigIndex = join(dataDir, 'indexes', indexFileName(realpathSync(big)));
  await expect.poll(() => existsSync(bigIndex), { timeout: 20_000, interval: 1 }).toBe(true);
  expect(await search(r, { query: 'koalaInvoice' })).toMatch(/^src\/billing\/invoice\.ts:1: /);
  // Closed while it waited for the index (or, on a slow start, told the build goes on): from grep either way.
  expect(text(await first)).toMatch(
    /\n\n\[(The index here was closed while this search waited for it \(another workspace was searched, or Rebuild\)|The index is still building \(\d+ of \d+ files\)); these results come from grep\.\]$/,
  );
  const rows = () =>
    (r.service.registries.panels.list().find((p) => p.id === 'workspace_search.settings')?.sections[0]?.rows ?? []).map(
      (row) => (row as { text: string }).text,
    );
  await expect
    .poll(rows, { timeout: 10_000 })
    .toContain(`${big} — stopped while building, as another workspace was searched: goes on at the next search there`);
  expect(rows().find((row) => row.startsWith(`${workspace} — `))).toMatch(/ — ready · /);
  for (let i = 0; ; i++) {
    const out = text(await inBig({ query: 'bigValue2999' }));
    if (!out.includes('The index is still building')) {
      expect(out).toBe(`f2999.ts:1: export const bigValue2999 = 2999; // ${'filler '.repeat(40).trim()}`);
      break;
    }
    expect(i).toBeLessThan(60);
  }
  await expect.poll(rows, { timeout: 10_000 }).toContainEqual(expect.stringMatching(new RegExp(`^${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — ready · `)));
}, 120_000);
