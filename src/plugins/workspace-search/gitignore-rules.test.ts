import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { GitignoreRules, rulesFolderOf } from './gitignore-rules.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'amber-gitignore-'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('names match at any depth, anchored patterns from their folder, folders with all below them, and ! re-includes', () => {
  writeFileSync(join(root, '.gitignore'), '# build output\ndist/\n*.log\n/top.txt\ndocs/*.tmp\n!keep.log\n');
  mkdirSync(join(root, 'pkg', 'docs'), { recursive: true });
  writeFileSync(join(root, 'pkg', '.gitignore'), 'local-only.ts\n');
  const rules = new GitignoreRules(root);
  const ignored = (path: string) => rules.ignores(join(root, path));
  expect(ignored('dist')).toBe(true);
  expect(ignored('pkg/dist/index.js')).toBe(true);
  expect(ignored('a/b/error.log')).toBe(true);
  expect(ignored('keep.log')).toBe(false);
  expect(ignored('top.txt')).toBe(true);
  expect(ignored('pkg/top.txt')).toBe(false);
  expect(ignored('docs/draft.tmp')).toBe(true);
  expect(ignored('pkg/docs/draft.tmp')).toBe(false);
  expect(ignored('pkg/local-only.ts')).toBe(true);
  expect(ignored('local-only.ts')).toBe(false);
  expect(ignored('src/main.ts')).toBe(false);
});

test('a .gitignore that is a link is not read, and a changed one is read again once forgotten', () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'amber-gitignore-out-'));
  try {
    writeFileSync(join(elsewhere, 'rules'), '*.ts\n');
    symlinkSync(join(elsewhere, 'rules'), join(root, '.gitignore'));
    const rules = new GitignoreRules(root);
    expect(rules.ignores(join(root, 'a.ts'))).toBe(false);
    rmSync(join(root, '.gitignore'));
    writeFileSync(join(root, '.gitignore'), '*.ts\n');
    expect(rules.ignores(join(root, 'a.ts'))).toBe(false);
    rules.forget(root);
    expect(rules.ignores(join(root, 'a.ts'))).toBe(true);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('.git/info/exclude rules the root below its .gitignore, and is not read through a link', () => {
  mkdirSync(join(root, '.git', 'info'), { recursive: true });
  writeFileSync(join(root, '.git', 'info', 'exclude'), '*.local\nscratch/\nkept.txt\n');
  writeFileSync(join(root, '.gitignore'), '!kept.txt\n');
  const rules = new GitignoreRules(root);
  expect(rules.ignores(join(root, 'a.local'))).toBe(true);
  expect(rules.ignores(join(root, 'pkg', 'scratch', 'x.ts'))).toBe(true);
  expect(rules.ignores(join(root, 'kept.txt'))).toBe(false);
  expect(rules.ignores(join(root, 'a.ts'))).toBe(false);

  const elsewhere = mkdtempSync(join(tmpdir(), 'amber-gitignore-out-'));
  try {
    mkdirSync(join(elsewhere, 'info'));
    writeFileSync(join(elsewhere, 'info', 'exclude'), '*.ts\n');
    rmSync(join(root, '.git'), { recursive: true });
    symlinkSync(elsewhere, join(root, '.git'));
    rules.forget(root);
    expect(rules.ignores(join(root, 'a.ts'))).toBe(false);
    expect(rules.ignores(join(root, 'a.local'))).toBe(false);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('forgetting a folder forgets the rules read below it too', () => {
  mkdirSync(join(root, 'pkg', 'deep'), { recursive: true });
  writeFileSync(join(root, 'pkg', 'deep', '.gitignore'), '*.ts\n');
  const rules = new GitignoreRules(root);
  expect(rules.ignores(join(root, 'pkg', 'deep', 'a.ts'))).toBe(true);
  writeFileSync(join(root, 'pkg', 'deep', '.gitignore'), '*.md\n');
  rules.forget(join(root, 'pkg'));
  expect(rules.ignores(join(root, 'pkg', 'deep', 'a.ts'))).toBe(false);
  expect(rules.ignores(join(root, 'pkg', 'deep', 'a.md'))).toBe(true);
});

test('the folder whose rules a changed path may change: the folder of a .gitignore, or the root for the exclude file and its folders', () => {
  expect(rulesFolderOf(root, join(root, '.gitignore'))).toBe(root);
  expect(rulesFolderOf(root, join(root, 'a', 'b', '.gitignore'))).toBe(join(root, 'a', 'b'));
  for (const rel of ['.git', '.git/info', '.git/info/exclude']) expect(rulesFolderOf(root, join(root, rel)), rel).toBe(root);
  for (const rel of ['.git/index', '.git/info/refs', 'a/.git/info/exclude', '.gitignore.bak', 'exclude', '']) {
    expect(rulesFolderOf(root, join(root, rel)), rel).toBeNull();
  }
});
