// The workspace search plugin's semantic mode in its own process, against a loopback embeddings server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LoopbackEmbeddings, startLoopbackEmbeddings } from '../fixtures/loopback-embeddings.ts';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';
import { indexedSearch, searchCall } from './search-calls.ts';

let server: LoopbackEmbeddings;
let dir: ReturnType<typeof tempDir>;
let workspace: string;
let runtime: BundledRuntime | null = null;
const dataOf = () => join(dir.path, 'search-data');

beforeAll(async () => {
  server = await startLoopbackEmbeddings();
});
afterAll(() => server.close());

beforeEach(() => {
  server.behaviour = 'ok';
  server.requests.length = 0;
  dir = tempDir('amber-semantic-');
  workspace = join(dir.path, 'ws');
  mkdirSync(join(workspace, 'src', 'billing'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'billing', 'charge-customer.ts'), 'export function chargeCustomer(amount: number) {\n  return pay(amount);\n}\n');
  writeFileSync(join(workspace, 'src', 'http.ts'), 'export function parseHeader(raw: string) {\n  return raw.split(":"); // http header\n}\n');
  writeFileSync(join(workspace, 'src', 'login.ts'), 'export async function signIn(password: string) {\n  return authenticate(password);\n}\n');
  for (let i = 0; i < 30; i++) writeFileSync(join(workspace, 'src', `filler${i}.ts`), `export const filler${i} = ${i};\n`);
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  dir.remove();
});

async function start(embeddings?: Record<string, unknown>): Promise<BundledRuntime> {
  runtime = await startBundled(['workspace-search'], {
    dataDir: dir.path,
    config: new Map([['workspace_search', { dataDir: dataOf(), ...(embeddings ? { embeddings } : {}) }]]),
  });
  return runtime;
}

const scope = () => ({ workspace, dataDir: dataOf() });
const call = (r: BundledRuntime, args: unknown) => searchCall(r, args, scope());
/** A search answered from the index (not grep while it builds). */
const search = (r: BundledRuntime, args: Record<string, unknown>) => indexedSearch(r, args, scope());

const semanticRows = (r: BundledRuntime) => {
  const panel = r.service.registries.panels.list().find((p) => p.id === 'workspace_search.settings')!;
  const section = panel.sections.find((s) => s.title === 'Semantic search')!;
  return section.rows.map((row) => (row as { text: string }).text);
};

describe('semantic search in the plugin process', () => {
  it('is off until an endpoint is named: mode semantic answers with text and says how to turn it on', async () => {
    const r = await start();
    const out = await search(r, { query: 'header', mode: 'semantic' });
    expect(out).toMatch(/^src\/http\.ts:1: export function parseHeader/);
    expect(out).toMatch(
      /\[Semantic search is off: no embeddings endpoint is set\. Name one in Settings → Plugins → Workspace search → Embeddings \(a base URL and a model\)\. These results come from mode text\.\]$/,
    );
    expect(semanticRows(r)).toEqual([
      'Semantic search is off: no embeddings endpoint is set. Name one in Settings → Plugins → Workspace search → Embeddings (a base URL and a model).',
    ]);
    expect(server.requests).toEqual([]);
  });

  it('embeds the workspace after the index is built and finds code by meaning, with the key and model named', async () => {
    const r = await start({ baseUrl: server.url, model: 'concepts', apiKey: 'sk-local' });
    expect(await search(r, { query: 'invoice' })).toMatch(/^No matches for "invoice"/);
    await expect.poll(() => semanticRows(r)[1], { timeout: 15_000 }).toBe(`${workspace} — ready · 33 files, 33 chunks`);
    expect(semanticRows(r)[0]).toBe('Vectors from concepts, made in the background after each index is built.');
    const out = await search(r, { query: 'invoice', mode: 'semantic', limit: 2 });
    expect(out.split('\n')[0]).toMatch(
      /^src\/billing\/charge-customer\.ts:1: export function chargeCustomer\(amount: number\) \{ {2}\(lines 1–3, similarity (0\.9\d|1\.00)\)$/,
    );
    expect(out).toMatch(/\[Showing the 2 nearest files; more are near\. Give a path to narrow it\.\]$/);
    expect(await search(r, { query: 'sign in with a password', mode: 'semantic', path: 'src', limit: 1 })).toMatch(/^src\/login\.ts:1: /);
    expect(server.requests.every((q) => q.model === 'concepts' && q.authorization === 'Bearer sk-local')).toBe(true);

    // Rebuild deletes the vectors with the index: the next search builds both again.
    const embedded = server.embedded;
    const panel = r.service.registries.panels.list().find((p) => p.id === 'workspace_search.settings')!;
    const rebuild = (panel.sections[0]!.rows[0] as { actions?: { id: string }[] }).actions![0]!.id;
    await r.service.registries.panels.action('workspace_search.settings', rebuild);
    await search(r, { query: 'header' });
    await expect.poll(() => server.embedded - embedded, { timeout: 15_000 }).toBe(33);
    await expect.poll(() => semanticRows(r)[1], { timeout: 15_000 }).toBe(`${workspace} — ready · 33 files, 33 chunks`);
    expect(await search(r, { query: 'invoice', mode: 'semantic', limit: 1 })).toMatch(/^src\/billing\/charge-customer\.ts:1: /);
  });

  it('shows a failing endpoint in its Settings row and answers from text meanwhile', async () => {
    server.behaviour = 'status401';
    const r = await start({ baseUrl: server.url, model: 'concepts' });
    await search(r, { query: 'header' });
    await expect
      .poll(() => semanticRows(r)[1], { timeout: 15_000 })
      .toMatch(
        /^.* — stopped: The embeddings endpoint refused the request \(401\): check the API key\. It said: \{"error":\{"message":"invalid api key"\}\} Trying again in \d+ s\.$/,
      );
    const out = await search(r, { query: 'header', mode: 'semantic' });
    expect(out).toMatch(/^src\/http\.ts:1: /);
    expect(out).toMatch(/\[Semantic search has no vectors yet: The embeddings endpoint refused the request \(401\).* These results come from mode text\.\]$/);
  });

  it('refuses settings it cannot use with a sentence, and hostile arguments of the new mode', async () => {
    const r = await start({ baseUrl: 'file:///etc/passwd', model: 'concepts' });
    // The plugin starts at its first use: its Settings row is drawn then.
    expect(await search(r, { query: 'header', mode: 'semantic' })).toMatch(
      /\[The embeddings setting 'baseUrl' cannot be used: .* These results come from mode text\.\]$/,
    );
    expect(semanticRows(r)).toEqual([
      "The embeddings setting 'baseUrl' cannot be used: the base URL must be an http or https address, such as http://localhost:11434/v1.",
    ]);
    for (const args of [
      { query: 'x'.repeat(501), mode: 'semantic' },
      { query: '', mode: 'semantic' },
      { query: 'invoice', mode: 'Semantic' },
      { query: 'invoice', mode: 'semantic', limit: 0 },
      { query: 'invoice', mode: 'semantic', limit: 101 },
      { query: 'invoice', mode: 'semantic', path: '../outside' },
      { query: ['invoice'], mode: 'semantic' },
    ]) {
      const out = await call(r, args);
      expect(out.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
    }
    expect(server.requests).toEqual([]);
  });
});
