import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { identifierPartsOf } from './identifier-words.ts';
import { SearchIndexStore } from './search-index-store.ts';
import { gramsQuery, wordsQuery } from './search-query.ts';

let dir: string;
let store: SearchIndexStore | null = null;
const content = (text: string) => ({ bytes: Buffer.from(text), parts: identifierPartsOf(text) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-search-store-'));
});

afterEach(() => {
  store?.close();
  store = null;
  rmSync(dir, { recursive: true, force: true });
});

test('words rank a path match first, identifier parts match, a scope limits, and a removed folder takes its files along', () => {
  store = SearchIndexStore.open(join(dir, 'index.sqlite'));
  store.put('src/billing/invoice.ts', 10, 1, content('export const total = 1;'));
  store.put('src/report.ts', 10, 1, content('// the invoice is sent; invoice again'));
  store.put('lib/user_store.py', 10, 1, content('def get_user_name(): pass'));
  store.put('image.png', 10, 1, null);
  expect(store.searchWords(wordsQuery('invoice', 'AND')!, null, 10)).toEqual(['src/billing/invoice.ts', 'src/report.ts']);
  expect(store.searchWords(wordsQuery('getUserName', 'AND')!, null, 10)).toEqual(['lib/user_store.py']);
  expect(store.searchWords(wordsQuery('invoice', 'AND')!, 'src/billing', 10)).toEqual(['src/billing/invoice.ts']);
  expect(store.searchWords(wordsQuery('invoice', 'AND')!, 'src/bill', 10)).toEqual([]);
  expect(store.stats().files).toBe(3);
  store.remove('src');
  expect(store.searchWords(wordsQuery('invoice', 'AND')!, null, 10)).toEqual([]);
  expect([...store.files().keys()].sort()).toEqual(['image.png', 'lib/user_store.py']);
});

test('trigram phrases match exact fragments, case-insensitive, a page at a time in index order', () => {
  store = SearchIndexStore.open(join(dir, 'index.sqlite'));
  for (let i = 0; i < 5; i++) store.put(`f${i}.ts`, 10, 1, content(`const parseHttpResponse${i} = ${i};`));
  store.put('other.ts', 10, 1, content('const response = http.parse();'));
  const first = store.searchGrams(gramsQuery('PARSEHTTPRESP')!, null, 0, 2);
  expect(first.map((f) => f.path)).toEqual(['f0.ts', 'f1.ts']);
  const rest = store.searchGrams(gramsQuery('PARSEHTTPRESP')!, null, first.at(-1)!.id, 10);
  expect(rest.map((f) => f.path)).toEqual(['f2.ts', 'f3.ts', 'f4.ts']);
  expect(gramsQuery('ab')).toBeNull();
});

test('a file that is not an index is replaced by an empty one, and says so', () => {
  const file = join(dir, 'index.sqlite');
  store = SearchIndexStore.open(file);
  store.put('a.ts', 1, 1, content('alpha'));
  store.close();
  writeFileSync(file, Buffer.alloc(8192, 'not a database '));
  store = SearchIndexStore.open(file);
  expect(store.rebuilt).toBe(true);
  expect(store.files().size).toBe(0);
  store.put('a.ts', 1, 1, content('alpha'));
  store.close();
  store = SearchIndexStore.open(file);
  expect(store.rebuilt).toBe(false);
  expect([...store.files().keys()]).toEqual(['a.ts']);
});

test('removing a path takes the file or folder of that name and all below it, and no name that only starts like it', () => {
  store = SearchIndexStore.open(join(dir, 'index.sqlite'));
  const paths = ['a', 'a/b.ts', 'a/c/d.ts', 'a0', 'a.b', 'ab/x.ts', 'a-x/y.ts', 'b/a/z.ts', 'a%/q.ts', 'a_/r.ts', 'é/s.ts'];
  for (const path of paths) store.put(path, 1, 1, content(`const word = 1; // ${path}`));
  store.transaction(() => store!.remove('a'));
  expect([...store.files().keys()].sort()).toEqual(['a%/q.ts', 'a-x/y.ts', 'a.b', 'a0', 'a_/r.ts', 'ab/x.ts', 'b/a/z.ts', 'é/s.ts']);
  store.transaction(() => store!.remove('a%'));
  store.transaction(() => store!.remove('é'));
  store.transaction(() => store!.remove('b/a/z.ts'));
  expect([...store.files().keys()].sort()).toEqual(['a-x/y.ts', 'a.b', 'a0', 'a_/r.ts', 'ab/x.ts']);
  expect(store.searchWords(wordsQuery('word', 'AND')!, null, 20).sort()).toEqual(['a-x/y.ts', 'a.b', 'a0', 'a_/r.ts', 'ab/x.ts']);
});
