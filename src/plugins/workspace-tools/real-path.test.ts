import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { resolveRealPath } from './real-path.ts';

let base: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'amber-real-')));
  mkdirSync(join(base, 'ws', 'src'), { recursive: true });
  mkdirSync(join(base, 'out'));
  writeFileSync(join(base, 'ws', 'src', 'a.ts'), 'a');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

test('an existing path resolves through its links to where it is', async () => {
  symlinkSync('src', join(base, 'ws', 'alias'));
  expect(await resolveRealPath(join(base, 'ws', 'alias', 'a.ts'))).toEqual({ real: join(base, 'ws', 'src', 'a.ts'), exists: true });
});

test('a missing tail is kept below the real path of its deepest existing ancestor', async () => {
  symlinkSync(join(base, 'out'), join(base, 'ws', 'link'));
  expect(await resolveRealPath(join(base, 'ws', 'src', 'new', 'x.ts'))).toEqual({ real: join(base, 'ws', 'src', 'new', 'x.ts'), exists: false });
  expect(await resolveRealPath(join(base, 'ws', 'link', 'new', 'x.ts'))).toEqual({ real: join(base, 'out', 'new', 'x.ts'), exists: false });
});

test('a dangling link resolves to where it points, even as an intermediate folder', async () => {
  symlinkSync('../out/made.txt', join(base, 'ws', 'dangling'));
  symlinkSync('../out/missing-dir', join(base, 'ws', 'dangling-dir'));
  expect(await resolveRealPath(join(base, 'ws', 'dangling'))).toEqual({ real: join(base, 'out', 'made.txt'), exists: false });
  expect(await resolveRealPath(join(base, 'ws', 'dangling-dir', 'a', 'b.txt'))).toEqual({
    real: join(base, 'out', 'missing-dir', 'a', 'b.txt'),
    exists: false,
  });
});

test('a loop of links fails with ELOOP', async () => {
  symlinkSync('b', join(base, 'ws', 'a'));
  symlinkSync('a', join(base, 'ws', 'b'));
  await expect(resolveRealPath(join(base, 'ws', 'a', 'x'))).rejects.toMatchObject({ code: 'ELOOP' });
});
