// Workspace search as a user sees it: the model calls `search`, and its tool card shows the ranked lines, the
// file whose name holds the words first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { HeadlessOptions } from '../../src/main/headless/headless-shell.ts';
import { openAiStream } from '../fixtures/wire/wire-fixtures.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { closeModelRig, coreFor, type ModelRig, openModelRig } from './loopback-model.ts';

let amber: Amber | null = null;
let rig: ModelRig;

beforeEach(async () => {
  rig = await openModelRig('amber-search-');
});

afterEach(async () => {
  await closeModelRig(rig, amber);
  amber = null;
});

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
  rig.model.setScript([
    openAiStream({ text: 'Searching.', toolCalls: [{ id: 'call_1', name: 'search', arguments: { query: 'invoice total', limit: 5 } }] }),
    openAiStream({ text: 'It is computed in src/billing/invoice-total.ts.' }),
    openAiStream({ text: 'done' }),
  ]);
  const a = (amber = await startAmber({ core: pluginToolsCore() }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Where is the invoice total computed?');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'It is computed in' }).waitFor();
  const card = a.page.locator('[data-testid=tool-card][data-tool=search][data-status=ok]');
  await card.waitFor();
  const output = (await card.getByTestId('tool-output-text').textContent()) ?? '';
  const lines = output.split('\n');
  expect(lines[0]).toBe('src/billing/invoice-total.ts:1: export function invoiceTotal(lines: number[]) {');
  expect(lines.slice(1, 5).every((l) => /^src\/report\d+\.ts:1: \/\/ the invoice total of report \d+$/.test(l))).toBe(true);
  expect(output).toContain('more matched');
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: docsShot('search-tool-card.png'), animations: 'disabled' });
});
