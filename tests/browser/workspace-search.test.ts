// Workspace search as a user sees it: the model calls `search`, and its tool card shows the ranked lines, the
// file whose name holds the words first.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessOptions } from '../../src/main/headless/headless-shell.ts';
import type { Script } from '../fixtures/provider-server.ts';
import { openAiStream } from '../fixtures/wire/wire-fixtures.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { closeModelRig, coreFor, type ModelRig, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let rig: ModelRig;

beforeEach(async () => {
  rig = await openModelRig('amber-search-');
});

afterEach(async () => {
  await closeModelRig(rig, amber);
  amber = null;
});

type ToolCallArgs = Record<string, unknown>;
type WireMessage = { role?: string; content?: unknown };

/**
 * A model that first probes the index with small searches until it stops answering that it is still building (the
 * plugin starts with the first call, and a loaded machine can take seconds to walk the workspace; meanwhile search
 * answers from grep), then makes its one real call `name` with `args` and answers `answer`. Each probe differs (the
 * agent refuses a repeated call and a repeated reply). A request without tools (the conversation's title) gets "done".
 */
function callOnceIndexed(name: string, args: ToolCallArgs, lead: string, answer: string): Script {
  let probes = 0;
  let called = false;
  return async (request) => {
    const body = request.body as { tools?: unknown[]; messages?: WireMessage[] };
    if (!body.tools?.length) return openAiStream({ text: 'done' });
    const last = body.messages?.at(-1);
    if (last?.role === 'tool' && called) return openAiStream({ text: answer });
    const building = last?.role === 'tool' && typeof last.content === 'string' && last.content.includes('The index is still building');
    if (last?.role === 'user' || building) {
      if (building) await new Promise((resolve) => setTimeout(resolve, 300));
      probes += 1;
      return openAiStream({
        text: `Looking around (${probes}).`,
        toolCalls: [{ id: `probe_${probes}`, name: 'search', arguments: { query: 'warm', limit: probes } }],
      });
    }
    called = true;
    return openAiStream({ text: lead, toolCalls: [{ id: 'call_1', name, arguments: args }] });
  };
}

/** The loopback model with the plugins' own tools (search among them). */
function pluginToolsCore(): NonNullable<HeadlessOptions['core']> {
  const core = { ...coreFor(rig.model, rig.workspace) };
  delete core.tools;
  return core;
}

test('the search tool card lists path:line results, the file named after the words first', async () => {
  mkdirSync(join(rig.workspace, 'src', 'billing'), { recursive: true });
  for (let i = 0; i < 30; i++)
    writeFileSync(join(rig.workspace, 'src', `report${i}.ts`), `// the invoice total of report ${i}\nexport const report${i} = ${i};\n`);
  writeFileSync(
    join(rig.workspace, 'src', 'billing', 'invoice-total.ts'),
    'export function invoiceTotal(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
  );
  rig.model.setScript(callOnceIndexed('search', { query: 'invoice total', limit: 5 }, 'Searching.', 'It is computed in src/billing/invoice-total.ts.'));
  const a = (amber = await startAmber({ core: pluginToolsCore() }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Where is the invoice total computed?');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'It is computed in' }).waitFor();
  const card = a.page.locator('[data-testid=tool-card][data-tool=search][data-status=ok]').last();
  await card.waitFor();
  const output = (await card.getByTestId('tool-output-text').textContent()) ?? '';
  const lines = output.split('\n');
  expect(lines[0]).toBe('src/billing/invoice-total.ts:1: export function invoiceTotal(lines: number[]) {');
  expect(lines.slice(1, 5).every((l) => /^src\/report\d+\.ts:1: \/\/ the invoice total of report \d+$/.test(l))).toBe(true);
  expect(output).toContain('more matched');
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: docsShot('search-tool-card.png'), animations: 'disabled' });
});

test('the repo_map tool card shows the map as an outline: files as headings, their definitions with line numbers', async () => {
  mkdirSync(join(rig.workspace, 'src', 'billing'), { recursive: true });
  writeFileSync(
    join(rig.workspace, 'src', 'billing', 'ledger.ts'),
    'export class Ledger {\n  add(amount: number) {}\n}\n\nexport function openLedger(): Ledger {\n  return new Ledger();\n}\n',
  );
  for (let i = 0; i < 4; i++)
    writeFileSync(
      join(rig.workspace, 'src', `report${i}.ts`),
      `import { openLedger } from './billing/ledger.ts';\nexport function report${i}() {\n  return openLedger();\n}\n`,
    );
  writeFileSync(join(rig.workspace, 'src', 'main.ts'), "import { report0 } from './report0.ts';\nexport function main() {\n  report0();\n}\n");
  rig.model.setScript(callOnceIndexed('repo_map', { focus: ['src/main.ts'] }, 'Mapping.', 'The ledger is at the centre.'));
  const a = (amber = await startAmber({ core: pluginToolsCore() }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Give me a map of this code.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'at the centre' }).waitFor();
  const card = a.page.locator('[data-testid=tool-card][data-tool=repo_map][data-status=ok]').last();
  await card.waitFor();
  await expect.poll(() => card.getByTestId('tool-summary').textContent()).toBe('toward src/main.ts');
  const output = (await card.getByTestId('tool-output-text').textContent()) ?? '';
  expect(output.split('\n').slice(0, 2)).toEqual(['src/report0.ts', '  2 export function report0() {']);
  await expect.poll(() => card.locator('.repo-map-file').allTextContents()).toContain('src/billing/ledger.ts\n');
  const weight = await card
    .locator('.repo-map-file')
    .first()
    .evaluate((el) => getComputedStyle(el).fontWeight);
  expect(Number(weight)).toBeGreaterThanOrEqual(600);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: docsShot('repo-map-tool-card.png'), animations: 'disabled' });
});

test('Settings → Plugins lists the workspace searched with its index state, size and last update, and Rebuild builds it again', async () => {
  mkdirSync(join(rig.workspace, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(rig.workspace, 'src', `part${i}.ts`), `export const part${i} = ${i}; // the invoice of part ${i}\n`);
  rig.model.setScript([
    openAiStream({ text: 'Searching.', toolCalls: [{ id: 'call_1', name: 'search', arguments: { query: 'invoice', limit: 3 } }] }),
    openAiStream({ text: 'Found the parts.' }),
    openAiStream({ text: 'done' }),
  ]);
  const a = (amber = await startAmber({ core: pluginToolsCore() }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Which parts mention an invoice?');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Found the parts.' }).waitFor();

  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  const row = a.page.locator('[data-testid=plugin-row][data-id=workspace_search]');
  const folded = row.getByTestId('plugin-settings-panel');
  await folded.locator('summary').filter({ hasText: 'Search indexes' }).click();
  const item = folded.getByTestId('panel-item').filter({ hasText: rig.workspace });
  await expect.poll(() => item.locator('.panel-text').textContent()).toMatch(/ — ready · \d+ KB · updated just now$/);
  await row.scrollIntoViewIfNeeded();
  await row.screenshot({ path: docsShot('search-index-settings.png'), animations: 'disabled' });
  // The index's own panel is in Settings, not in the Panels column.
  expect(await a.page.locator('[data-testid=panels] [data-id="workspace_search.settings"]').count()).toBe(0);

  const indexes = join(a.dataDir, 'plugin-data', 'workspace_search', 'indexes');
  // A file made again can get the deleted one's inode number back: its birth time tells them apart.
  const madeAt = (file: string) => statSync(join(indexes, file)).birthtimeMs;
  const before = madeAt(readdirSync(indexes).find((f) => f.endsWith('.sqlite'))!);
  await item.getByTestId('panel-row-action').filter({ hasText: 'Rebuild' }).click();
  await expect.poll(() => item.locator('.panel-text').textContent()).toMatch(/ — ready · \d+ KB · updated just now$/);
  const file = readdirSync(indexes).find((f) => f.endsWith('.sqlite'))!;
  await expect.poll(() => madeAt(file)).not.toBe(before);
});
