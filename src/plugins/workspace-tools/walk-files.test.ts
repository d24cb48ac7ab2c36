import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { walkFiles } from './walk-files.ts';

let base: string;

async function seen(dir: string, skip?: (path: string) => boolean): Promise<string[]> {
  const paths: string[] = [];
  for await (const entry of walkFiles(dir, { skip })) paths.push(entry.path);
  return paths;
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'amber-walk-')));
  mkdirSync(join(base, 'ws', 'src'), { recursive: true });
  mkdirSync(join(base, 'out'));
  writeFileSync(join(base, 'ws', 'src', 'a.ts'), 'a');
  writeFileSync(join(base, 'out', 'secret.txt'), 's');
  symlinkSync(join(base, 'out'), join(base, 'ws', 'link'));
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

test('a walk lists a link without following it', async () => {
  expect(await seen(join(base, 'ws'))).toEqual([join(base, 'ws', 'link'), join(base, 'ws', 'src'), join(base, 'ws', 'src', 'a.ts')]);
});

test('a walk does not enter a start folder that is a link', async () => {
  expect(await seen(join(base, 'ws', 'link'))).toEqual([]);
});

test('a walk leaves out what skip names, with everything below it', async () => {
  expect(await seen(join(base, 'ws'), (p) => p.endsWith('src'))).toEqual([join(base, 'ws', 'link')]);
});
