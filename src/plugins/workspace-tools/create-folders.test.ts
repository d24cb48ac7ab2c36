import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createFolders } from './create-folders.ts';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'amber-folders-')));
  root = join(base, 'ws');
  outside = join(base, 'ws2');
  mkdirSync(join(root, 'a'), { recursive: true });
  mkdirSync(outside);
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

test('missing folders are created one by one below the deepest existing one', async () => {
  await createFolders(join(root, 'a', 'b', 'c'), 'a/b/c/x.txt');
  expect(existsSync(join(root, 'a', 'b', 'c'))).toBe(true);
});

test('a folder on the way swapped for a link before a mkdir is refused, and the folder made outside is taken back', async () => {
  const swap = async (folder: string) => {
    if (folder !== join(root, 'a', 'b')) return;
    renameSync(join(root, 'a'), join(root, 'a-was'));
    symlinkSync(outside, join(root, 'a'));
  };
  await expect(createFolders(join(root, 'a', 'b', 'c'), 'a/b/c/x.txt', { beforeMake: swap })).rejects.toThrow(
    'A folder on the way to a/b/c/x.txt changed while it was being created; try again.',
  );
  expect(readdirSync(outside)).toEqual([]);
});
