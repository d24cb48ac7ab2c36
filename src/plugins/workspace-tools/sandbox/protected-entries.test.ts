import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createProtectedEntriesCache, findProtectedEntries } from './protected-entries.ts';

let root: string;
let elsewhere: string;

function put(path: string, content = ''): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'amber-protected-')));
  elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'amber-elsewhere-')));
  put('.git/hooks/post-commit');
  put('.git/config');
  put('package.json');
  put('src/index.ts');
  put('packages/a/package.json');
  put('packages/a/Makefile');
  put('.github/workflows/ci.yml');
  put('.github/ISSUE_TEMPLATE.md');
  put('node_modules/left-pad/package.json');
  put('node_modules/.bin/tool');
  put('deep/a/b/c/.vscode/tasks.json');
  mkdirSync(join(elsewhere, '.git'));
  writeFileSync(join(elsewhere, 'package.json'), '');
  symlinkSync(elsewhere, join(root, 'linked'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

const rel = (paths: string[]) => paths.map((p) => p.slice(root.length + 1)).sort();

test('finds the protected paths that exist, at any depth, a protected folder as one entry', () => {
  const found = findProtectedEntries(root);
  expect(rel(found.paths)).toEqual([
    '.git',
    '.github/workflows',
    'deep/a/b/c/.vscode',
    'node_modules/.bin',
    'package.json',
    'packages/a/Makefile',
    'packages/a/package.json',
  ]);
  expect(found.complete).toBe(true);
});

test('never follows a symbolic link nor walks into node_modules, but a protected link itself is listed', () => {
  symlinkSync(join(elsewhere, 'package.json'), join(root, 'src', 'package.json'));
  const found = rel(findProtectedEntries(root).paths);
  expect(found).not.toContain('linked/.git');
  expect(found).not.toContain('node_modules/left-pad/package.json');
  expect(found).toContain('src/package.json');
});

test('a workspace inside a folder named like a protected one is judged by its own paths only', () => {
  const nested = join(root, 'fish', 'functions', 'project');
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(nested, 'readme.md'), '');
  expect(findProtectedEntries(nested).paths).toEqual([]);
});

test('the walk stops at its bounds and says it is incomplete', () => {
  expect(findProtectedEntries(root, { maxDirs: 2 })).toMatchObject({ complete: false, dirs: 2 });
  const shallow = findProtectedEntries(root, { maxDepth: 1 });
  expect(shallow.complete).toBe(false);
  expect(rel(shallow.paths)).not.toContain('deep/a/b/c/.vscode');
});

/** Sets every folder's time a minute back, as a tree nobody is changing looks. */
function settle(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) settle(join(dir, entry.name));
}

test('the cache reuses a walk while no folder changed, and walks again when one did', () => {
  const cached = createProtectedEntriesCache();
  settle(root);
  const first = cached(root);
  expect(cached(root)).toBe(first);
  put('packages/a/justfile');
  const second = cached(root);
  expect(second).not.toBe(first);
  expect(rel(second.paths)).toContain('packages/a/justfile');
});

test('a walk over folders changed a moment ago is not reused: a change in the same clock tick would not show', () => {
  const cached = createProtectedEntriesCache();
  const first = cached(root);
  expect(cached(root)).not.toBe(first);
});
