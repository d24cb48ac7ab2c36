// Semantic search as a user turns it on: an embeddings endpoint (a loopback server speaking the OpenAI embeddings
// wire format) named in Settings → Plugins → Workspace search, then a search card whose file never says the words.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessOptions } from '../../src/main/headless/headless-shell.ts';
import { type LoopbackEmbeddings, startLoopbackEmbeddings } from '../fixtures/loopback-embeddings.ts';
import { closeModelRig, coreFor, type ModelRig, openModelRig } from '../fixtures/loopback-model.ts';
import type { Script } from '../fixtures/provider-server.ts';
import { openAiStream } from '../fixtures/wire/wire-fixtures.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';

let amber: Amber | null = null;
let rig: ModelRig;
let embeddings: LoopbackEmbeddings;

beforeEach(async () => {
  rig = await openModelRig('amber-semantic-');
  embeddings = await startLoopbackEmbeddings();
});

afterEach(async () => {
  await closeModelRig(rig, amber);
  amber = null;
  await embeddings.close();
});

type WireMessage = { role?: string; content?: unknown };
/** What a search answers while there is nothing to search by meaning yet. */
const NOT_YET = /The index is still building|still being embedded|Embedding is in progress|These results come from mode text/;

/**
 * A model that probes with small semantic searches until they answer from vectors (the index is built, then the
 * workspace embedded, in the background), then makes its one real call and answers. Each probe differs (the agent
 * refuses a repeated call). A request without tools (the conversation's title) gets "done".
 */
function searchOnceEmbedded(query: string, answer: string): Script {
  let probes = 0;
  let called = false;
  return async (request) => {
    const body = request.body as { tools?: unknown[]; messages?: WireMessage[] };
    if (!body.tools?.length) return openAiStream({ text: 'done' });
    const last = body.messages?.at(-1);
    if (last?.role === 'tool' && called) return openAiStream({ text: answer });
    const waiting = last?.role === 'tool' && typeof last.content === 'string' && NOT_YET.test(last.content);
    if (last?.role === 'user' || waiting) {
      if (waiting) await new Promise((resolve) => setTimeout(resolve, 300));
      probes += 1;
      return openAiStream({
        text: `Looking around (${probes}).`,
        toolCalls: [{ id: `probe_${probes}`, name: 'search', arguments: { query: `warm ${probes}`, mode: 'semantic', limit: 1 } }],
      });
    }
    called = true;
    return openAiStream({ text: 'Searching by meaning.', toolCalls: [{ id: 'call_1', name: 'search', arguments: { query, mode: 'semantic', limit: 3 } }] });
  };
}

test('a user names an embeddings endpoint in Settings and the search card lists the file nearest in meaning', async () => {
  mkdirSync(join(rig.workspace, 'src', 'billing'), { recursive: true });
  writeFileSync(join(rig.workspace, 'src', 'billing', 'charge-customer.ts'), 'export function chargeCustomer(amount: number) {\n  return pay(amount);\n}\n');
  writeFileSync(join(rig.workspace, 'src', 'http.ts'), 'export function parseHeader(raw: string) {\n  return raw.split(":"); // http header\n}\n');
  writeFileSync(join(rig.workspace, 'src', 'login.ts'), 'export async function signIn(password: string) {\n  return authenticate(password);\n}\n');
  rig.model.setScript(searchOnceEmbedded('send an invoice', 'Customers are charged in src/billing/charge-customer.ts.'));
  const core: NonNullable<HeadlessOptions['core']> = { ...coreFor(rig.model, rig.workspace) };
  delete core.tools;
  const a = (amber = await startAmber({ core }));
  await a.open();
  const { page } = a;

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-plugins').click();
  const row = page.locator('[data-testid=plugin-row][data-id=workspace_search]');
  await row.getByRole('button', { name: 'Workspace search settings' }).click();
  const form = row.getByTestId('plugin-config-form');
  const field = (key: string) => form.locator(`[data-testid=plugin-config-field][data-key="${key}"]`);
  await field('embeddings.baseUrl').locator('input').fill(embeddings.url);
  await field('embeddings.model').locator('input').fill('concepts');
  await field('embeddings.apiKey').locator('input').fill('sk-local-embeddings');
  await form.getByTestId('plugin-config-save').click();
  await expect.poll(() => field('embeddings.apiKey').locator('input').getAttribute('placeholder')).toMatch(/^•+ \(set; type to replace\)$/);
  await page.keyboard.press('Escape');

  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Where do we send invoices?');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Customers are charged' }).waitFor();
  const card = page.locator('[data-testid=tool-card][data-tool=search][data-status=ok]').last();
  await card.waitFor();
  const output = (await card.getByTestId('tool-output-text').textContent()) ?? '';
  expect(output.split('\n')[0]).toMatch(
    /^src\/billing\/charge-customer\.ts:1: export function chargeCustomer\(amount: number\) \{ {2}\(lines 1–3, similarity (0\.9\d|1\.00)\)$/,
  );
  expect(output).not.toMatch(NOT_YET);
  // The vectors came from the endpoint named, with its key.
  expect(embeddings.requests.length).toBeGreaterThan(0);
  expect(embeddings.requests.every((r) => r.model === 'concepts' && r.authorization === 'Bearer sk-local-embeddings')).toBe(true);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: docsShot('semantic-search-card.png'), animations: 'disabled' });

  // Settings shows where the vectors stand.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-plugins').click();
  const panel = row.getByTestId('plugin-settings-panel');
  await panel.locator('summary').filter({ hasText: 'Search indexes' }).click();
  await expect.poll(() => panel.textContent()).toContain(`${rig.workspace} — ready · 3 files, 3 chunks`);
  await row.scrollIntoViewIfNeeded();
  await row.screenshot({ path: docsShot('semantic-search-settings.png'), animations: 'disabled' });
});
