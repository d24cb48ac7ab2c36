import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { fileFacts } from './file-facts.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-file-facts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a file is there with its size, a folder is there, a missing path is not', () => {
  writeFileSync(join(dir, 'a.txt'), 'hello');
  mkdirSync(join(dir, 'sub'));
  expect(fileFacts(join(dir, 'a.txt'))).toEqual({ path: join(dir, 'a.txt'), exists: true, bytes: 5 });
  expect(fileFacts(join(dir, 'sub'))).toEqual({ path: join(dir, 'sub'), exists: true });
  expect(fileFacts(join(dir, 'none.txt'))).toEqual({ path: join(dir, 'none.txt'), exists: false });
});

test("an edit's old text is placed in the file: its first line, how often it occurs, the lines around it", () => {
  const file = join(dir, 'config.ts');
  writeFileSync(file, 'one\ntwo\nconst retries = 3;\nfour\nfive\nsix\n');
  expect(fileFacts(file, { path: file, oldText: 'const retries = 3;', newText: 'x' }).edit).toEqual({
    line: 3,
    occurrences: 1,
    before: ['one', 'two'],
    after: ['four', 'five'],
  });
  expect(fileFacts(file, { path: file, oldText: 'o', newText: 'x' }).edit).toMatchObject({ line: 1, occurrences: 4 });
  expect(fileFacts(file, { path: file, oldText: 'absent', newText: 'x' }).edit).toEqual({ occurrences: 0, before: [], after: [] });
  // A write's arguments have no old text: the file is not read.
  expect(fileFacts(file, { path: file, content: 'new' }).edit).toBeUndefined();
});

test('a binary file is not placed in, only sized', () => {
  const file = join(dir, 'blob.bin');
  writeFileSync(file, Buffer.from([0, 1, 2, 3]));
  expect(fileFacts(file, { oldText: 'x', newText: 'y' })).toEqual({ path: file, exists: true, bytes: 4 });
});

test('a FIFO named by an edit is said to be there and never read: main does not wait on it', () => {
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const started = Date.now();
  expect(fileFacts(fifo, { path: fifo, oldText: 'x', newText: 'y' })).toEqual({ path: fifo, exists: true });
  expect(Date.now() - started).toBeLessThan(1000);
});
