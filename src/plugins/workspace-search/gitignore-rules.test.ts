import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { GitignoreRules } from './gitignore-rules.ts';

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
