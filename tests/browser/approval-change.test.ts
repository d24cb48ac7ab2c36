// The approval dialog shows a file change before it runs: an edit as the lines it takes out and puts in, a
// write as whether it replaces a file that exists (with its size) or creates one, and the new content's
// first lines. Real workspace tools, a loopback model, the files outside the workspace so the policy asks.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { seriousViolations } from './axe-audit.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer | null = null;
let dir = '';
afterEach(async () => {
  await amber?.close();
  await model?.close();
  amber = null;
  model = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CONFIG = 'export const name = "fetcher";\nconst retries = 3;\nconst timeoutMs = 1000;\nexport { retries, timeoutMs };\n';
const NOTES = Array.from({ length: 30 }, (_, i) => `- note ${i + 1}`).join('\n');

/** The dialog alone for the docs, the test's temp folder written as a user's folder. */
async function docsDialog(page: Page, from: string, name: string): Promise<void> {
  const dialog = page.getByTestId('approval-dialog');
  await dialog.evaluate((el, folder) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) n.textContent = (n.textContent ?? '').split(folder).join('/home/ada');
  }, from);
  await dialog.screenshot({ path: docsShot(name), animations: 'disabled' });
}

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 800 },
] as const) {
  test(`the approval dialog shows an edit's lines out and in, and a write's before and first lines (${theme}, ${width} px)`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'amber-approval-change-'));
    const workspace = join(dir, 'workspace');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(workspace);
    mkdirSync(elsewhere);
    const config = join(elsewhere, 'config.ts');
    const notes = join(elsewhere, 'notes.md');
    writeFileSync(config, CONFIG);
    writeFileSync(notes, 'old notes\n');
    model = await startModel([
      openAiStream({
        text: 'Tuning the retries.',
        toolCalls: [
          { id: 'call_1', name: 'edit', arguments: { path: config, oldText: 'const retries = 3;', newText: 'const retries = 5;\nconst backoffMs = 200;' } },
        ],
      }),
      openAiStream({ text: 'Then the notes.', toolCalls: [{ id: 'call_2', name: 'write', arguments: { path: notes, content: NOTES } }] }),
      openAiStream({
        text: 'And a new file.',
        toolCalls: [{ id: 'call_3', name: 'write', arguments: { path: join(elsewhere, 'todo.md'), content: 'one\ntwo' } }],
      }),
      openAiStream({ text: 'Nothing was changed.' }),
    ]);
    // The bundled workspace tools (edit, write), not the fixture's own write_file.
    const { tools: _fixtureTools, ...core } = coreFor(model, workspace);
    amber = await startAmber({ theme, viewport: { width, height: 820 }, core });
    await expect.poll(() => amber!.shell.app.plugins.registries.tools.get('edit') !== undefined, { timeout: 20_000 }).toBe(true);
    await amber.open();
    const { page } = amber;
    await page.keyboard.press('Control+n');
    await page.getByTestId('composer').fill('Tune the fetcher and write the notes.');
    await page.keyboard.press('Enter');

    // The edit: the file is there (its size said), where the old text is in it, the old line out, the new lines in,
    // framed by the file's own lines around them.
    const dialog = page.getByTestId('approval-dialog');
    const change = dialog.getByTestId('approval-change');
    await expect.poll(() => change.getAttribute('data-kind')).toBe('edit');
    expect(await change.getByTestId('approval-change-head').textContent()).toBe(`Edits ${config}, ${CONFIG.length} bytes now, at line 2.`);
    const diff = change.getByTestId('approval-diff').locator('.change-line');
    expect(
      await diff.evaluateAll((lines) =>
        lines.map((l) => `${l.getAttribute('data-mark')}${l.textContent!.replace(/^.(removed: |added: )?/, '').replace(/\n$/, '')}`),
      ),
    ).toEqual([
      ' export const name = "fetcher";',
      '-const retries = 3;',
      '+const retries = 5;',
      '+const backoffMs = 200;',
      ' const timeoutMs = 1000;',
      ' export { retries, timeoutMs };',
    ]);
    // The JSON arguments are there, behind a disclosure.
    expect(await dialog.locator('details.approval-raw').getAttribute('open')).toBeNull();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page, '[data-testid=approval-dialog]')).toEqual([]);
    await amber.screenshot(`approval-change-edit-${theme}-${width}`);
    if (process.env.AMBER_DOCS_SCREENSHOT && theme === 'light') await docsDialog(page, dir, 'approval-edit-before.png');
    await dialog.getByRole('button', { name: 'Deny' }).click();

    // The write over an existing file: said plainly, with the file's size now and the new content's first lines.
    await expect.poll(() => change.getAttribute('data-kind')).toBe('write');
    await expect
      .poll(() => change.getByTestId('approval-change-head').textContent())
      .toBe(`Replaces ${notes}, 10 bytes now, with ${NOTES.length} bytes in 30 lines.`);
    expect((await change.getByTestId('approval-new-content').textContent())!.split('\n')).toEqual(NOTES.split('\n').slice(0, 16));
    expect(await change.getByTestId('approval-change-more').textContent()).toBe('14 more lines not shown.');
    await amber.screenshot(`approval-change-write-${theme}-${width}`);
    if (process.env.AMBER_DOCS_SCREENSHOT && theme === 'light') await docsDialog(page, dir, 'approval-write-before.png');
    await dialog.getByRole('button', { name: 'Deny' }).click();

    // A write where no file is yet says it creates one.
    await expect
      .poll(() => change.getByTestId('approval-change-head').textContent())
      .toBe(`Creates ${join(elsewhere, 'todo.md')}, a new file: 7 bytes in 2 lines.`);
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'Nothing was changed.' }).waitFor();
    // Denied, nothing was touched.
    expect(readFileSync(config, 'utf8')).toBe(CONFIG);
    expect(readFileSync(notes, 'utf8')).toBe('old notes\n');
  });
}
