import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { discoverPlugins } from './plugin-discovery.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-discovery-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function plugin(root: string, folder: string, manifest: Record<string, unknown>, entryFile: string | null = 'index.js'): string {
  const p = join(root, folder);
  mkdirSync(p, { recursive: true });
  writeFileSync(join(p, 'manifest.json'), JSON.stringify({ version: '1.0.0', name: folder, protocolVersion: 1, entry: 'index.js', ...manifest }));
  if (entryFile) writeFileSync(join(p, entryFile), 'export default {};\n');
  return p;
}

test('bundled plugins come first in list order, then user plugins by folder name', () => {
  const bundled = join(dir, 'bundled');
  const user = join(dir, 'user');
  plugin(bundled, 'two', { id: 'two', entry: 'index.ts' }, 'index.ts');
  plugin(bundled, 'one', { id: 'one', entry: 'index.ts' }, 'index.ts');
  plugin(user, 'zed', { id: 'zed' });
  plugin(user, 'abc', { id: 'abc', category: 'something-new' });
  const { plugins, problems } = discoverPlugins({ bundledRoot: bundled, bundledIds: ['two', 'one'], userRoot: user });
  expect(problems).toEqual([]);
  expect(plugins.map((p) => `${p.source}:${p.manifest.id}`)).toEqual(['bundled:two', 'bundled:one', 'user:abc', 'user:zed']);
  expect(plugins[2]!.manifest.category).toBe('something-new');
  expect(plugins[2]!.entry).toBe(join(user, 'abc', 'index.js'));
});

test('a built app loads the .js a bundled .ts entry was built to', () => {
  plugin(dir, 'one', { id: 'one', entry: 'index.ts' }, 'index.js');
  const { plugins } = discoverPlugins({ bundledRoot: dir, bundledIds: ['one'], builtEntries: true });
  expect(plugins[0]!.entry).toBe(join(dir, 'one', 'index.js'));
});

test('folders that cannot be plugins are reported with the reason, and the rest still load', () => {
  const user = join(dir, 'plugins');
  plugin(user, 'good', { id: 'good' });
  plugin(user, 'misnamed', { id: 'other' });
  plugin(user, 'source', { id: 'source', entry: 'index.ts' }, 'index.ts');
  plugin(user, 'escape', { id: 'escape', entry: '../good/index.js' });
  plugin(user, 'unbuilt', { id: 'unbuilt' }, null);
  plugin(user, 'badid', { id: 'Bad-Id' });
  mkdirSync(join(user, 'empty'));
  const { plugins, problems } = discoverPlugins({ bundledRoot: dir, bundledIds: [], userRoot: user });
  expect(plugins.map((p) => p.manifest.id)).toEqual(['good']);
  const reasons = Object.fromEntries(problems.map((p) => [p.dir.split(/[\\/]/).pop(), p.reason]));
  expect(reasons.misnamed).toMatch(/folder must be named after its id 'other'/);
  expect(reasons.source).toMatch(/must be built JavaScript/);
  expect(reasons.escape).toMatch(/must lie inside the plugin's folder/);
  expect(reasons.unbuilt).toMatch(/does not exist \(build the plugin first\)/);
  expect(reasons.badid).toMatch(/id: a plugin id is lower-case letters, digits and _/);
  expect(reasons.empty).toMatch(/Could not read/);
});

test('a second plugin with a taken id is refused', () => {
  const bundled = join(dir, 'bundled');
  plugin(bundled, 'one', { id: 'one' });
  plugin(join(dir, 'user'), 'one', { id: 'one' });
  const { plugins, problems } = discoverPlugins({ bundledRoot: bundled, bundledIds: ['one'], userRoot: join(dir, 'user') });
  expect(plugins).toHaveLength(1);
  expect(problems[0]!.reason).toBe("Another plugin already has the id 'one'.");
});
