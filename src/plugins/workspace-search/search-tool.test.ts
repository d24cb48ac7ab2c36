import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ToolOutput } from '../../shared/tools/index.ts';
import { SearchIndexService } from './search-index-service.ts';
import { createSearchTool } from './search-tool.ts';

let base: string;
let root: string;
let index: SearchIndexService | null = null;
const text = (out: ToolOutput) => out.content.map((c) => c.text).join('');

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'amber-search-tool-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(join(root, 'src', `part${i}.ts`), `export const accountBalance${i} = ${i};\n`);
});

afterEach(() => {
  index?.dispose();
  index = null;
  rmSync(base, { recursive: true, force: true });
});

test('while the index is first built, text and substring answer from grep and say how far the build is', async () => {
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false });
  const tool = createSearchTool({ indexOf: () => index, indexWaitMs: 0 });
  expect(index.building).toBe(true);
  const early = await tool.execute({ query: 'accountBalance7' }, { root });
  expect(text(early)).toMatch(
    /^src\/part7\.ts:1: export const accountBalance7 = 7;\n\n\[The index is still building \(\d+ of \d+ files\); these results come from grep\.\]$/,
  );
  await index.ready;
  expect(text(await tool.execute({ query: 'accountBalance7' }, { root }))).toBe('src/part7.ts:1: export const accountBalance7 = 7;');
  expect(text(await tool.execute({ query: 'Balance4', mode: 'substring', limit: 2 }, { root }))).toBe(
    'src/part4.ts:1: export const accountBalance4 = 4;\nsrc/part40.ts:1: export const accountBalance40 = 40;\n\n[Showing the first 2 matching lines; more matched. Give a longer fragment or a path to narrow it.]',
  );
});

test('without an index (no data folder) every mode still answers, from grep, saying so; a short fragment goes to grep', async () => {
  const tool = createSearchTool({ indexOf: () => null });
  expect(text(await tool.execute({ query: 'accountBalance3 nothing' }, { root }))).toMatch(
    /^src\/part3\.ts:1: [^\n]*\nsrc\/part30\.ts:1: [\s\S]*\n\n\[There is no index to search/,
  );
  const short = await tool.execute({ query: '4;', mode: 'substring', path: 'src/part4.ts' }, { root });
  expect(text(short)).toMatch(/^src\/part4\.ts:1: export const accountBalance4 = 4;\n\n\[A fragment under 3 characters is searched with grep\.\]$/);
});

test('without a watcher, a search walks the workspace again in the background and later searches see new and deleted files', async () => {
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false, rescanAfterMs: 0 });
  const tool = createSearchTool({ indexOf: () => index });
  await index.ready;
  expect(index.watching).toBe(false);
  writeFileSync(join(root, 'src', 'late.ts'), 'export const lateArrival = 1;\n');
  rmSync(join(root, 'src', 'part9.ts'));
  await tool.execute({ query: 'lateArrival' }, { root });
  await index.settled();
  expect(text(await tool.execute({ query: 'lateArrival' }, { root }))).toBe('src/late.ts:1: export const lateArrival = 1;');
  expect(text(await tool.execute({ query: 'accountBalance9' }, { root }))).toBe('No matches for "accountBalance9" in the workspace.');
});

test('the exact identifier ranks before a file that only holds its parts, even one named after them', async () => {
  writeFileSync(join(root, 'src', 'long.ts'), `${'// filler line of words\n'.repeat(3000)}export const benchFresh1Marker = 1;\n`);
  mkdirSync(join(root, 'src', 'bench'));
  writeFileSync(join(root, 'src', 'bench', 'fresh-marker.ts'), 'export const freshMarker = 1;\n');
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false });
  const tool = createSearchTool({ indexOf: () => index });
  await index.ready;
  expect(text(await tool.execute({ query: 'benchFresh1Marker', limit: 2 }, { root }))).toBe(
    'src/long.ts:3001: export const benchFresh1Marker = 1;\nsrc/bench/fresh-marker.ts:1: export const freshMarker = 1;',
  );
});

test('symbol mode lists where a name is defined first, then the files that use it, and follows an edit', async () => {
  writeFileSync(join(root, 'src', 'store.ts'), 'export class LedgerStore {\n  open() {}\n}\n');
  writeFileSync(join(root, 'src', 'use.ts'), "import { LedgerStore } from './store.ts';\nconst a = new LedgerStore();\nconst b = new LedgerStore();\n");
  writeFileSync(join(root, 'src', 'tool.py'), 'def ledger_store():\n    return LedgerStore()\n');
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false });
  const tool = createSearchTool({ indexOf: () => index });
  await index.ready;
  expect(text(await tool.execute({ query: 'LedgerStore', mode: 'symbol' }, { root }))).toBe(
    [
      'Definitions of LedgerStore:',
      'src/store.ts:1: export class LedgerStore {  (class)',
      '',
      'Files that use LedgerStore:',
      "src/use.ts:1: import { LedgerStore } from './store.ts';  (3 uses in this file)",
      'src/tool.py:2: return LedgerStore()',
    ].join('\n'),
  );
  writeFileSync(join(root, 'src', 'store.ts'), '// moved\n\nexport class LedgerStore {}\n');
  expect(text(await tool.execute({ query: 'LedgerStore', mode: 'symbol', limit: 1 }, { root }))).toBe(
    'Definitions of LedgerStore:\nsrc/store.ts:3: export class LedgerStore {}  (class)\n\n[Showing the first 1; more matched. Give a path to narrow it.]',
  );
  expect(text(await tool.execute({ query: 'ledgerstore', mode: 'symbol', path: 'src/use.ts' }, { root }))).toMatch(
    /^Files that use ledgerstore:\nsrc\/use\.ts:1: /,
  );
});

test('symbol mode refuses what is not a name, and answers from grep while the index builds', async () => {
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false });
  const tool = createSearchTool({ indexOf: () => index, indexWaitMs: 0 });
  const early = await tool.execute({ query: 'accountBalance7', mode: 'symbol' }, { root });
  expect(text(early)).toMatch(/^src\/part7\.ts:1: export const accountBalance7 = 7;\n\n\[The index is still building/);
  for (const query of ['a b', "x' OR 1=1 --", '.*', '9lives', '../../etc/passwd']) {
    const out = await tool.execute({ query, mode: 'symbol' }, { root });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain('is not one: use mode text for words.');
  }
  await index.ready;
});

test('without a watcher, the walk a search starts reads a changed .gitignore again: files it ignores go, files it lets in come', async () => {
  writeFileSync(join(root, '.gitignore'), 'src/part1*.ts\n');
  index = new SearchIndexService({ root, file: join(base, 'index.sqlite'), watch: false, rescanAfterMs: 0 });
  const tool = createSearchTool({ indexOf: () => index });
  await index.ready;
  expect(text(await tool.execute({ query: 'accountBalance12' }, { root }))).toMatch(/^No matches/);
  writeFileSync(join(root, '.gitignore'), 'src/part2*.ts\n');
  await tool.execute({ query: 'accountBalance12' }, { root });
  await index.settled();
  expect(text(await tool.execute({ query: 'accountBalance12' }, { root }))).toBe('src/part12.ts:1: export const accountBalance12 = 12;');
  expect(
    text(await tool.execute({ query: 'accountBalance', mode: 'substring', path: 'src', limit: 100 }, { root }))
      .split('\n')
      .filter((l) => /part2\d?\.ts/.test(l)),
  ).toEqual([]);
});
