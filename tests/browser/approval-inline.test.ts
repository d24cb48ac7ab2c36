// A waiting call can be answered on its own card: the dialog's "Answer in the conversation" hides the question,
// the card says why it asks with Deny and Allow once, and what is answered there runs (or not) as from the dialog.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { seriousViolations } from './axe-audit.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-approval-inline-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 800 },
] as const) {
  test(`a waiting call is answered on its card: Allow once runs it, Deny does not (${theme}, ${width} px)`, async () => {
    const first = join(dir, 'elsewhere', 'a.txt');
    const second = join(dir, 'elsewhere', 'b.txt');
    model.setScript([
      openAiStream({ text: 'Writing the first.', toolCalls: [{ id: 'call_a', name: 'write_file', arguments: { path: first, content: 'first' } }] }),
      openAiStream({ text: 'Writing the second.', toolCalls: [{ id: 'call_b', name: 'write_file', arguments: { path: second, content: 'second' } }] }),
      openAiStream({ text: 'Finished.' }),
    ]);
    amber = await startAmber({ theme, viewport: { width, height: 760 }, core: coreFor(model, workspace) });
    await amber.open();
    const { page } = amber;
    await page.keyboard.press('Control+n');
    await page.getByTestId('composer').fill('Write both files.');
    await page.keyboard.press('Enter');

    // The dialog asks first; chosen, "Answer in the conversation" hides it and the card holds the question.
    const dialog = page.getByTestId('approval-dialog');
    await dialog.filter({ hasText: 'a.txt' }).waitFor();
    await dialog.getByTestId('approval-in-card').click();
    await expect.poll(() => dialog.count()).toBe(0);
    const card = page.locator('[data-testid=tool-card][data-status=awaiting]');
    const inline = card.getByTestId('tool-approval');
    await inline.waitFor();
    expect(await inline.textContent()).toContain('would change');
    expect(await inline.textContent()).toContain('a.txt');
    expect(existsSync(first)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page, '[data-testid=tool-card]')).toEqual([]);
    const shot = await amber.screenshot(`approval-inline-${theme}-${width}`);
    if (process.env.AMBER_DOCS_SCREENSHOT && theme === 'light') {
      // For the docs only: the test's temp folder reads as a user's folder.
      await card.evaluate((el, folder) => {
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) n.textContent = (n.textContent ?? '').split(folder).join('/home/ada');
      }, dir);
      await card.screenshot({ path: docsShot('approval-inline.png'), animations: 'disabled' });
    }
    expect(shot).toBeTruthy();

    // Allow once, on the card: the call runs, and the card shows it done.
    await inline.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => (existsSync(first) ? readFileSync(first, 'utf8') : null)).toBe('first');
    await expect.poll(() => page.locator('[data-testid=tool-card][data-tool=write_file]').first().getAttribute('data-status')).toBe('ok');

    // The next call asks in the dialog again; its card also offers the answer, and Deny there is a denial.
    await dialog.filter({ hasText: 'b.txt' }).waitFor();
    await dialog.getByTestId('approval-in-card').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await card.getByTestId('tool-approval').filter({ hasText: 'b.txt' }).getByRole('button', { name: 'Deny' }).click();
    await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Finished.' }).waitFor();
    expect(existsSync(second)).toBe(false);
    await expect.poll(() => page.locator('[data-testid=tool-card][data-tool=write_file]').nth(1).getAttribute('data-status')).toBe('denied');
    expect(await page.getByTestId('tool-approval').count()).toBe(0);
  });
}

test('answered in the dialog, the question leaves the card too', async () => {
  const target = join(dir, 'elsewhere', 'c.txt');
  model.setScript([
    openAiStream({ text: 'Writing.', toolCalls: [{ id: 'call_c', name: 'write_file', arguments: { path: target, content: 'c' } }] }),
    openAiStream({ text: 'Finished.' }),
  ]);
  amber = await startAmber({ core: coreFor(model, workspace) });
  await amber.open();
  const { page } = amber;
  await page.keyboard.press('Control+n');
  await page.getByTestId('composer').fill('Write it.');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'c.txt' }).waitFor();
  // Behind the dialog the card already offers the same answer.
  await page.locator('[data-testid=tool-card][data-status=awaiting]').getByTestId('tool-approval').waitFor();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Finished.' }).waitFor();
  expect(readFileSync(target, 'utf8')).toBe('c');
  expect(await page.getByTestId('tool-approval').count()).toBe(0);
});
