import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber, docsShot } from './harness.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-approvals-'));
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
});

function writes(...paths: string[]) {
  return [
    openAiStream({ text: 'Writing.', toolCalls: paths.map((path, i) => ({ id: `call_${i}`, name: 'write_file', arguments: { path, content: `file ${i}` } })) }),
    openAiStream({ text: 'Finished.' }),
  ];
}

async function openChatAndSend(text: string): Promise<Amber> {
  amber = await startAmber({ core: coreFor(model, workspace) });
  await amber.open();
  await amber.page.getByTestId('new-chat').click();
  await amber.page.getByTestId('composer').fill(text);
  await amber.page.keyboard.press('Enter');
  return amber;
}

const focusedLabel = (a: Amber) => a.page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);
const finished = (a: Amber) => a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Finished.' }).waitFor();

test('the approval dialog opens with Deny focused, and Enter denies', async () => {
  const outside = join(dir, 'elsewhere', 'a.txt');
  model.setScript(writes(outside));
  const a = await openChatAndSend('Write it.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'a.txt' }).waitFor();
  await expect.poll(() => focusedLabel(a)).toBe('Deny');
  await a.page.keyboard.press('Enter');
  await finished(a);
  await expect.poll(() => a.page.getByTestId('tool-card').getAttribute('data-status')).toBe('denied');
  expect(existsSync(outside)).toBe(false);
});

test('the approval dialog says where the call runs, the folder it changes and the reason the model gave; no button stands disabled', async () => {
  const outside = join(dir, 'elsewhere', 'notes.txt');
  model.setScript([
    openAiStream({
      text: 'Saving.',
      toolCalls: [
        { id: 'call_0', name: 'write_file', arguments: { path: outside, content: 'notes', description: 'You asked for the notes next to the project.' } },
      ],
    }),
    openAiStream({ text: 'Finished.' }),
  ]);
  const a = await openChatAndSend('Save my notes next to the project.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'notes.txt' }).waitFor();
  expect(await dialog.getByTestId('approval-working-folder').textContent()).toBe(`Working folder${workspace}`);
  expect(await dialog.getByTestId('approval-folder').textContent()).toBe(`Changes files in${join(dir, 'elsewhere')}`);
  expect(await dialog.getByTestId('approval-model-reason').textContent()).toBe('The model says“You asked for the notes next to the project.”');
  await dialog.getByRole('button', { name: 'Always in this folder' }).waitFor();
  expect(await dialog.locator('button:disabled').count()).toBe(0);
  await expect.poll(() => focusedLabel(a)).toBe('Deny');
  // For the docs image only: the test's temp folder reads as a user's folder.
  await dialog.evaluate((el, from) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) n.textContent = (n.textContent ?? '').split(from).join('/home/ada');
  }, dir);
  await dialog.screenshot({ path: docsShot('approval-dialog.png'), animations: 'disabled' });
  await a.page.keyboard.press('Enter');
  await finished(a);
  expect(existsSync(outside)).toBe(false);
});

test('Enter on Allow once does not approve; Alt+A allows only the call on screen, the next call asks on its own', async () => {
  const first = join(dir, 'out', 'a.txt');
  const second = join(dir, 'out', 'b.txt');
  model.setScript(writes(first, second));
  const a = await openChatAndSend('Write both.');
  const dialog = a.page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'a.txt' }).waitFor();
  await expect.poll(() => focusedLabel(a)).toBe('Deny');
  await dialog.getByRole('button', { name: 'Allow once' }).focus();
  await a.page.keyboard.press('Enter');
  // Had Enter answered a.txt, Alt+A would now land on b.txt and both files would be written.
  await a.page.keyboard.press('Alt+A');
  await dialog.filter({ hasText: 'b.txt' }).waitFor();
  await expect.poll(() => focusedLabel(a)).toBe('Deny');
  await a.page.keyboard.press('Enter');
  await finished(a);
  const cards = a.page.getByTestId('tool-card');
  await expect.poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['ok', 'denied']);
  expect(readFileSync(first, 'utf8')).toBe('file 0');
  expect(existsSync(second)).toBe(false);
});

test('a question asked while no window was open is shown when one opens', async () => {
  const outside = join(dir, 'elsewhere', 'late.txt');
  model.setScript(writes(outside));
  amber = await startAmber({ core: coreFor(model, workspace) });
  const app = amber.shell.app;
  const session = app.sessions.create({ title: 'late', cwd: workspace });
  const asked = new Promise<void>((res) => {
    const sub = app.approvals.onDidChange((c) => {
      if (c.kind === 'requested') {
        sub.dispose();
        res();
      }
    });
  });
  const run = app.agent.start(session.id, 'Write it.');
  await asked;
  await amber.open();
  const dialog = amber.page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'late.txt' }).waitFor();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect((await run.done).reason).toBe('stop');
  expect(readFileSync(outside, 'utf8')).toBe('file 0');
});

test("a user plugin's read-only claim is confirmed and revoked in Settings", async () => {
  amber = await startAmber({ core: coreFor(model, workspace) });
  const a = amber;
  mkdirSync(join(a.dataDir, 'plugins'), { recursive: true });
  cpSync(join(import.meta.dirname, '../fixtures/user-plugins/hello_user'), join(a.dataDir, 'plugins', 'hello_user'), { recursive: true });
  await a.shell.app.plugins.rescan();
  // A user plugin runs only once the user confirms it (its tools, and so its claims, are known from then on).
  await a.shell.app.plugins.setState('hello_user', true, { confirm: true });
  await a.open();
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-policy').click();
  const claim = a.page.getByTestId('readonly-claim').filter({ hasText: 'hello_user' });
  await claim.filter({ hasText: 'not confirmed' }).waitFor();
  await claim.getByRole('button', { name: /Confirm that .* only read/ }).click();
  await claim.filter({ hasText: /^confirmed/ }).waitFor();
  expect(a.shell.app.policy.readOnlyConfirmed('hello_user')).toBe(true);
  await a.page.getByTestId('settings-policy').scrollIntoViewIfNeeded();
  await a.screenshot('settings-readonly-claims');
  await claim.getByRole('button', { name: /Revoke/ }).click();
  await claim.filter({ hasText: 'not confirmed' }).waitFor();
  expect(a.shell.app.policy.readOnlyConfirmed('hello_user')).toBe(false);
});
