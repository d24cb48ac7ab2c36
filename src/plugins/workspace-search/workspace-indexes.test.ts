import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { indexesPanel } from './indexes-panel.ts';
import { indexFileName, WorkspaceIndexes } from './workspace-indexes.ts';

const DAY = 86_400_000;
let base: string;
let folder: string;
let indexes: WorkspaceIndexes | null = null;
const never = () => false;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'amber-indexes-'));
  folder = join(base, 'indexes');
  for (const name of ['old', 'recent']) {
    mkdirSync(join(base, name));
    writeFileSync(join(base, name, 'a.ts'), `export const ${name}Value = 1;\n`);
  }
});

afterEach(() => {
  indexes?.dispose();
  indexes = null;
  rmSync(base, { recursive: true, force: true });
});

test('an index unused for longer than the limit is removed when the indexes open; a recent one stays', async () => {
  let now = 1_000 * DAY;
  indexes = new WorkspaceIndexes(folder, { watch: false, now: () => now });
  await indexes.get(join(base, 'old'), never)!.ready;
  now += 20 * DAY;
  await indexes.get(join(base, 'recent'), never)!.ready;
  indexes.dispose();
  // An index file from before the registry, as old: removed too; other files in the folder are never touched.
  const orphan = join(folder, `${'f'.repeat(24)}.sqlite`);
  writeFileSync(orphan, 'x');
  utimesSync(orphan, new Date(0), new Date(0));
  writeFileSync(join(folder, 'notes.txt'), 'mine');
  now += 15 * DAY;
  indexes = new WorkspaceIndexes(folder, { watch: false, now: () => now, unusedAfterMs: 30 * DAY });
  expect(indexes.views().map((v) => [v.root, v.state])).toEqual([[join(base, 'recent'), 'idle']]);
  expect(readdirSync(folder).sort()).toEqual([indexFileName(join(base, 'recent')), 'notes.txt', 'workspaces.json']);
});

test('a registry that does not match its schema counts as empty and deletes nothing it names', async () => {
  mkdirSync(folder);
  const outside = join(base, 'keep.sqlite');
  writeFileSync(outside, 'keep');
  writeFileSync(join(folder, 'workspaces.json'), JSON.stringify({ version: 1, workspaces: { '../keep.sqlite': { root: '/', usedAt: 0 } } }));
  indexes = new WorkspaceIndexes(folder, { watch: false, now: () => 1e13 });
  expect(indexes.views()).toEqual([]);
  expect(existsSync(outside)).toBe(true);
  expect(indexes.rebuild('../keep.sqlite')).toBe(false);
  expect(indexes.rebuild(`${'0'.repeat(24)}.sqlite`)).toBe(false);
  writeFileSync(join(folder, 'workspaces.json'), '{ not json');
  expect(new WorkspaceIndexes(folder, { watch: false }).views()).toEqual([]);
});

test('Rebuild deletes an open index and builds it again; the panel shows each state, size and last update', async () => {
  const now = Date.now();
  indexes = new WorkspaceIndexes(folder, { watch: false, now: () => now });
  const root = join(base, 'recent');
  const first = indexes.get(root, never)!;
  await first.ready;
  const [ready] = indexes.views();
  expect(ready).toMatchObject({ root, state: 'ready', progress: null });
  expect(ready!.bytes).toBeGreaterThan(0);
  expect(ready!.updatedAt).toBeGreaterThan(now - 60_000);
  const panel = indexesPanel(indexes.views(), now, 30);
  expect(panel.sections[0]!.rows[0]).toEqual({
    type: 'text',
    text: expect.stringMatching(new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — ready · \\d+ KB · updated just now$`)),
    actions: [{ id: `rebuild.${ready!.file.replace('.sqlite', '')}`, label: 'Rebuild' }],
  });
  expect(indexes.rebuild(ready!.file)).toBe(true);
  const second = indexes.get(root, never)!;
  expect(second).not.toBe(first);
  expect(indexes.views()[0]!.state).toBe('building');
  expect(indexesPanel(indexes.views(), now, 30).sections[0]!.rows[0]).toMatchObject({
    text: expect.stringMatching(/ — building \(\d+ of \d+ files\)$/),
    actions: [],
  });
  await second.ready;
  expect((await second.searchText('recentValue', null, 5)).files.map((f) => f.path)).toEqual(['a.ts']);
  expect(indexesPanel([], now, 30).sections[0]!.rows[0]).toMatchObject({ text: expect.stringMatching(/^No workspace searched yet/) });
});

test('opening another workspace stops a build still going in the first; a later search there goes on from what it wrote', async () => {
  const big = join(base, 'big');
  mkdirSync(big);
  for (let i = 0; i < 3000; i++) writeFileSync(join(big, `f${i}.ts`), `export const bigValue${i} = ${i}; // ${'filler '.repeat(40)}\n`);
  const stopped: string[] = [];
  indexes = new WorkspaceIndexes(folder, { watch: false, onStopped: (file) => stopped.push(file) });
  const first = indexes.get(big, never)!;
  await expect.poll(() => first.progress.done, { timeout: 20_000, interval: 5 }).toBeGreaterThan(0);
  expect(first.building).toBe(true);
  const second = indexes.get(join(base, 'recent'), never)!;
  expect(stopped).toEqual([indexFileName(big)]);
  await first.ready;
  await second.ready;
  const states = Object.fromEntries(indexes.views().map((v) => [v.root, v.state]));
  expect(states).toEqual({ [big]: 'stopped', [join(base, 'recent')]: 'ready' });
  expect(indexesPanel(indexes.views(), Date.now(), 30).sections[0]!.rows.map((r) => (r as { text: string }).text)).toContain(
    `${big} — stopped while building, as another workspace was searched: goes on at the next search there`,
  );
  // What the stopped build wrote stays; the next search there reads only the rest.
  const again = indexes.get(big, never)!;
  expect(again).not.toBe(first);
  const kept = again.stats().files;
  expect(kept).toBeGreaterThanOrEqual(200);
  expect(kept).toBeLessThan(3000);
  await again.ready;
  expect(again.stats().files).toBe(3000);
  expect((await again.searchText('bigValue2999', null, 5)).files.map((f) => f.path)).toEqual(['f2999.ts']);
  expect((await second.searchText('recentValue', null, 5)).files.map((f) => f.path)).toEqual(['a.ts']);
}, 60_000);
