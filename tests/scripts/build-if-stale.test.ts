// The build runs once per test run: out/ counts as fresh only while its stamp is newer than every build
// input, and only when every output of a full build is there.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { build, isFresh } from '../../scripts/build-if-stale.mjs';

let root: string;
const OUTPUTS = ['out/renderer/index.html', 'out/main/index.js', 'out/main/plugin-host.js', 'out/preload/index.cjs'];

function write(path: string, atSeconds: number): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), path);
  utimesSync(join(root, path), atSeconds, atSeconds);
}

/** A build that writes every output, as electron-vite does. */
const fakeBuild = (at: number) => (r: string) => {
  for (const p of OUTPUTS) write(p, at);
  return r === root;
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'amber-build-stale-'));
  write('src/main/app.ts', 1_000);
  write('package.json', 1_000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('out/ without a stamp is stale; a build stamps it fresh; a source saved after the build started makes it stale again', () => {
  for (const p of OUTPUTS) write(p, 1_500);
  expect(isFresh(root)).toBe(false);
  expect(build(root, fakeBuild(2_000), () => 2_000_000)).toBe(true);
  expect(isFresh(root)).toBe(true);
  write('src/renderer/App.tsx', 2_001);
  expect(isFresh(root)).toBe(false);
});

test('a unit test saved later does not make out/ stale; the build config and a missing output do', () => {
  expect(build(root, fakeBuild(2_000), () => 2_000_000)).toBe(true);
  write('src/main/app.test.ts', 3_000);
  expect(isFresh(root)).toBe(true);
  write('electron.vite.config.ts', 3_000);
  expect(isFresh(root)).toBe(false);
  expect(build(root, fakeBuild(4_000), () => 4_000_000)).toBe(true);
  expect(isFresh(root)).toBe(true);
  rmSync(join(root, 'out/main/plugin-host.js'));
  expect(isFresh(root)).toBe(false);
});

test('a failed build leaves no stamp, so the next run builds again', () => {
  expect(
    build(
      root,
      () => false,
      () => 2_000_000,
    ),
  ).toBe(false);
  for (const p of OUTPUTS) write(p, 2_000);
  expect(isFresh(root)).toBe(false);
});
