// The workspace search plugin in its own process, over a real temp workspace of a few hundred files.
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';
import { indexedSearch, searchCall, searchableWithin as searchableWithinMs, toolText } from './search-calls.ts';

let dir: ReturnType<typeof tempDir>;
let workspace: string;
let runtime: BundledRuntime | null = null;
const dataOf = () => join(dir.path, 'search-data');

beforeEach(() => {
  dir = tempDir('amber-search-');
  workspace = join(dir.path, 'ws');
  const outside = join(dir.path, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'zebraSecret lives outside the workspace\n');
  for (let i = 0; i < 300; i++) {
    const folder = join(workspace, 'src', `module${i % 20}`);
    mkdirSync(folder, { recursive: true });
    const body = Array.from({ length: 30 }, (_, line) => `export const value${i}_${line} = compute(${line}); // plain filler text ${i}`).join('\n');
    writeFileSync(join(folder, `file${i}.ts`), `${body}\n${i % 10 === 0 ? 'const invoice = 1; // invoice invoice invoice\n' : ''}`);
  }
  mkdirSync(join(workspace, 'src', 'billing'));
  writeFileSync(
    join(workspace, 'src', 'billing', 'invoice-total.ts'),
    'export function total(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0); // invoice\n}\n',
  );
  writeFileSync(join(workspace, 'src', 'http.ts'), 'export function parseHttpResponseHeader(raw: string) {\n  return raw.split(":");\n}\n');
  writeFileSync(join(workspace, 'image.bin'), Buffer.concat([Buffer.from([0x89, 0, 0, 1]), Buffer.from(' zebraBinary invoice ')]));
  writeFileSync(join(workspace, 'huge.txt'), `zebraHuge\n${'x'.repeat(1100 * 1024)}\n`);
  writeFileSync(join(workspace, 'gone.ts'), 'const wombatGone = true;\n');
  writeFileSync(join(workspace, '.gitignore'), 'ignored/\n*.log\n');
  mkdirSync(join(workspace, 'ignored'));
  writeFileSync(join(workspace, 'ignored', 'notes.md'), 'zebraIgnored\n');
  writeFileSync(join(workspace, 'build.log'), 'zebraIgnored in a log\n');
  symlinkSync(outside, join(workspace, 'linked'));
  symlinkSync(join(outside, 'secret.txt'), join(workspace, 'secret-link.txt'));
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  dir.remove();
});

async function start(): Promise<BundledRuntime> {
  runtime = await startBundled(['workspace-search'], { dataDir: dir.path, config: new Map([['workspace_search', { dataDir: dataOf() }]]) });
  return runtime;
}

const scope = () => ({ workspace, dataDir: dataOf() });
const call = (r: BundledRuntime, args: unknown) => searchCall(r, args, scope());
const text = toolText;
const search = (r: BundledRuntime, args: Record<string, unknown>) => indexedSearch(r, args, scope());
const searchableWithin = (r: BundledRuntime, args: Record<string, unknown>, found: (out: string) => boolean, since: number) =>
  searchableWithinMs(r, args, found, since, scope());

describe('the search tool in its own process', () => {
  it('ranks the file whose name holds the word first, and finds a fragment inside an identifier', async () => {
    const r = await start();
    const ranked = (await search(r, { query: 'invoice', limit: 5 })).split('\n');
    expect(ranked[0]).toMatch(/^src\/billing\/invoice-total\.ts:2: /);
    expect(ranked.filter((l) => /^src\/module\d+\/file\d+\.ts:\d+: /.test(l)).length).toBeGreaterThan(0);
    expect(ranked.at(-1)).toMatch(/more matched/);

    expect(await search(r, { query: 'response header' })).toMatch(/^src\/http\.ts:1: export function parseHttpResponseHeader/);
    const sub = await search(r, { query: 'pResponseHead', mode: 'substring' });
    expect(sub).toBe('src/http.ts:1: export function parseHttpResponseHeader(raw: string) {');
    expect(await search(r, { query: 'invoice', mode: 'text', path: 'src/billing' })).not.toMatch(/module/);
    expect(await search(r, { query: 'value7_3\\b', mode: 'grep' })).toBe('src/module7/file7.ts:4: export const value7_3 = compute(3); // plain filler text 7');
  });

  it('finds where a symbol is defined and who uses it, and draws a repo map that leans toward the focus', async () => {
    writeFileSync(
      join(workspace, 'src', 'client.ts'),
      "import { parseHttpResponseHeader } from './http.ts';\nexport const header = parseHttpResponseHeader('a: b');\n",
    );
    const r = await start();
    expect(await search(r, { query: 'parseHttpResponseHeader', mode: 'symbol' })).toBe(
      [
        'Definitions of parseHttpResponseHeader:',
        'src/http.ts:1: export function parseHttpResponseHeader(raw: string) {  (function)',
        '',
        'Files that use parseHttpResponseHeader:',
        "src/client.ts:1: import { parseHttpResponseHeader } from './http.ts';  (2 uses in this file)",
      ].join('\n'),
    );
    const map = await r.service.registries.tools.execute('repo_map', { focus: ['src/client.ts'], tokens: 200 }, undefined, {
      sessionId: 's1',
      workspace,
      denied: [dataOf()],
    });
    expect(map.isError).toBe(false);
    expect(text(map).split('\n').slice(0, 2)).toEqual(['src/http.ts:', '  1: export function parseHttpResponseHeader(raw: string) {']);
    const outside = await r.service.registries.tools.execute('repo_map', { path: '../outside' }, undefined, { sessionId: 's1', workspace, denied: [dataOf()] });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/leaves the workspace/);
  });

  it('lists each searched workspace in its Settings panel (state, size, last update) and rebuilds one on Rebuild', async () => {
    const r = await start();
    const panel = () => r.service.registries.panels.list().find((p) => p.id === 'workspace_search.settings')!;
    expect(panel().title).toBe('Search indexes');
    await search(r, { query: 'invoice', limit: 1 });
    const row = () => panel().sections[0]!.rows[0]! as { type: 'text'; text: string; actions?: { id: string; label: string }[] };
    await expect.poll(() => row().text, { timeout: 10_000 }).toMatch(new RegExp(` — ready · [\\d.]+ (KB|MB) · updated (just now|1 minute ago)$`));
    expect(row().text.startsWith(workspace)).toBe(true);
    const rebuild = row().actions![0]!;
    expect(rebuild.label).toBe('Rebuild');
    const indexes = join(dataOf(), 'indexes');
    const [file] = readdirSync(indexes).filter((f) => f.endsWith('.sqlite'));
    expect(rebuild.id).toBe(`rebuild.${file!.replace('.sqlite', '')}`);
    await r.service.registries.panels.action('workspace_search.settings', rebuild.id);
    await expect.poll(() => row().text, { timeout: 10_000 }).toMatch(/ — (building \(\d+ of \d+ files\)|ready · .*)$/);
    expect(await search(r, { query: 'invoice', limit: 1 })).toMatch(/^src\/billing\/invoice-total\.ts/);
    // Actions it does not offer change nothing.
    for (const hostile of ['rebuild.../../outside', 'rebuild.', 'delete.all', `rebuild.${'0'.repeat(24)}`]) {
      await r.service.registries.panels.action('workspace_search.settings', hostile).catch(() => {});
    }
    expect(readdirSync(join(dir.path, 'outside'))).toEqual(['secret.txt']);
    expect(await search(r, { query: 'invoice', limit: 1 })).toMatch(/^src\/billing\/invoice-total\.ts/);
  });

  it('never shows a binary file, a file over 1 MB, an ignored file or a file reached through a link out', async () => {
    const r = await start();
    for (const mode of ['text', 'substring']) {
      for (const word of ['zebraSecret', 'zebraBinary', 'zebraHuge', 'zebraIgnored']) {
        expect(await search(r, { query: word, mode }), `${mode} ${word}`).toMatch(/^No matches for/);
      }
    }
    expect(await search(r, { query: 'plain filler text 12', mode: 'substring', path: 'src/module12', limit: 1 })).toMatch(/^src\/module12\/file12\.ts:1: /);
  });

  it('follows an edit within a second and forgets a deleted file', async () => {
    const r = await start();
    expect(await search(r, { query: 'quokkaFresh' })).toMatch(/^No matches/);
    let since = performance.now();
    writeFileSync(join(workspace, 'src', 'module3', 'file3.ts'), 'export const quokkaFresh = 42;\n');
    const took = await searchableWithin(r, { query: 'quokkaFresh' }, (out) => out.startsWith('src/module3/file3.ts:1: '), since);
    expect(took).toBeLessThan(1000);
    expect(await search(r, { query: 'value3_0', mode: 'substring' })).toMatch(/^No matches/);

    mkdirSync(join(workspace, 'fresh', 'deeper'), { recursive: true });
    since = performance.now();
    writeFileSync(join(workspace, 'fresh', 'deeper', 'note.md'), 'a quokkaFolder note\n');
    await searchableWithin(r, { query: 'kkaFold', mode: 'substring' }, (out) => out.startsWith('fresh/deeper/note.md:1: '), since);

    expect(await search(r, { query: 'wombatGone' })).toMatch(/^gone\.ts:1: /);
    since = performance.now();
    rmSync(join(workspace, 'gone.ts'));
    await searchableWithin(r, { query: 'wombatGone' }, (out) => out.startsWith('No matches'), since);
    expect(await search(r, { query: 'ombatGon', mode: 'substring' })).toMatch(/^No matches/);
  });

  it('refuses hostile arguments with a sentence', async () => {
    const r = await start();
    const refused = async (args: unknown, reason: RegExp) => {
      const out = await call(r, args);
      expect(out.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
      expect(text(out)).toMatch(reason);
    };
    await refused({ query: '' }, /the query is empty/);
    await refused({ query: 'q'.repeat(10_000) }, /longer than 500 characters/);
    await refused({ query: 'zebraSecret', path: '../outside' }, /leaves the workspace/);
    await refused({ query: 'zebraSecret', path: join(dir.path, 'outside') }, /absolute path outside the workspace/);
    await refused({ query: 'zebraSecret', path: 'linked' }, /leads out of the workspace through a symbolic link/);
    await refused({ query: 'zebra', mode: 'fuzzy' }, /mode/);
    await refused({ query: 'zebra', limit: 1000 }, /limit/);
  });

  it('rebuilds an unreadable index with a notice, and deleting it loses nothing', async () => {
    let r = await start();
    expect(await search(r, { query: 'invoice', limit: 1 })).toMatch(/^src\/billing\/invoice-total\.ts/);
    await r.close();
    const indexes = join(dataOf(), 'indexes');
    const [file] = readdirSync(indexes).filter((f) => f.endsWith('.sqlite'));
    writeFileSync(join(indexes, file!), Buffer.alloc(64 * 1024, 'garbage! '));
    r = await start();
    const rebuilt = await search(r, { query: 'invoice', limit: 1 });
    expect(rebuilt).toMatch(/^src\/billing\/invoice-total\.ts/);
    expect(rebuilt).toContain('[The search index could not be read and is being built again from the workspace.]');
    expect(await search(r, { query: 'invoice', limit: 1 })).not.toContain('could not be read');
    await r.close();

    rmSync(indexes, { recursive: true });
    r = await start();
    expect(await search(r, { query: 'invoice', limit: 1 })).toMatch(/^src\/billing\/invoice-total\.ts/);
  });
});
