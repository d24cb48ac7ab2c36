import { expect, test } from 'vitest';
import { languageOf, SymbolTagger } from './symbol-tagger.ts';

const tagger = new SymbolTagger();
const short = (path: string, text: string) => tagger.tags(path, text).map((t) => `${t.kind} ${t.type} ${t.name} ${t.line}`);

test('each shipped grammar finds definitions and references: TypeScript, TSX, JavaScript, Python, Go, Rust and bash', async () => {
  await tagger.load();
  expect(
    short(
      'a.ts',
      "import { join } from 'node:path';\nexport class Store {}\nexport type Row = { a: Store };\nexport function open(): Store {\n  return new Store(join('a'));\n}\n",
    ),
  ).toEqual([
    'ref import join 1',
    'def class Store 2',
    'def type Row 3',
    'ref type Store 3',
    'def function open 4',
    'ref type Store 4',
    'ref class Store 5',
    'ref call join 5',
  ]);
  expect(short('a.tsx', 'export function Card() {\n  return <Badge />;\n}\n')).toEqual(['def function Card 1', 'ref call Badge 2']);
  expect(short('a.mjs', 'const run = () => start();\n')).toEqual(['def constant run 1', 'ref call start 1']);
  expect(short('a.py', 'from m import Base\nclass User(Base):\n    def name(self):\n        return fetch()\n')).toEqual([
    'ref import Base 1',
    'def class User 2',
    'def function name 3',
    'ref call fetch 4',
  ]);
  expect(short('a.go', 'package m\nfunc Open() {\n\tClose()\n}\n')).toEqual(['def function Open 2', 'ref call Close 3']);
  expect(short('a.rs', 'struct Pool;\nfn open() -> Pool { make() }\n')).toEqual([
    'def class Pool 1',
    'def function open 2',
    'ref type Pool 2',
    'ref call make 2',
  ]);
  expect(short('a.sh', 'deploy() { rsync -a . host:; }\ndeploy\n')).toEqual(['def function deploy 1', 'ref call rsync 1', 'ref call deploy 2']);
});

test('a file of another language, or one that does not parse, has no symbols and does not throw', async () => {
  await tagger.load();
  expect(languageOf('notes.md')).toBeNull();
  expect(tagger.tags('notes.md', '# function open() {}')).toEqual([]);
  expect(tagger.tags('broken.ts', 'export function ((( {{{ class')).toEqual(expect.any(Array));
  expect(tagger.tags('huge.ts', `function big() {}\n${' '.repeat(600 * 1024)}`)).toEqual([]);
});

test('keeping only linking references, a language that imports names gives its definitions and imports only; Go and bash all', async () => {
  const lean = new SymbolTagger({ references: 'linking' });
  await lean.load();
  const tags = (path: string, text: string) => lean.tags(path, text).map((t) => `${t.kind} ${t.type} ${t.name} ${t.line}`);
  expect(
    tags('a.ts', "import { join } from 'node:path';\nexport class Store {}\nexport function open(): Store {\n  return new Store(join('a'));\n}\n"),
  ).toEqual(['ref import join 1', 'def class Store 2', 'def function open 3']);
  expect(tags('a.py', 'from m import Base\nclass User(Base):\n    def name(self):\n        return fetch()\n')).toEqual([
    'ref import Base 1',
    'def class User 2',
    'def function name 3',
  ]);
  expect(tags('a.go', 'package m\nfunc Open() {\n\tClose()\n}\n')).toEqual(['def function Open 2', 'ref call Close 3']);
});
