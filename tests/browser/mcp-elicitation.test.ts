// A server asks the user while its tool runs (elicitation, form mode): the reference server's
// trigger-elicitation-request, called by the loopback model. The form appears on the running tool's card, naming
// the server and its message, with the defaults filled in; Accept with a required field empty says what is wrong
// and puts the focus there; filled in from the keyboard and accepted, the server's answer lands in the card.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { EVERYTHING_ENTRY } from '../mcp/everything-server.ts';
import { seriousViolations } from './axe-audit.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

const TOOL = 'mcp__everything__trigger-elicitation-request';
let amber: Amber | null = null;
let model: ProviderServer | null = null;
let dir: string | null = null;

afterEach(async () => {
  await amber?.close();
  amber = null;
  await model?.close();
  model = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function startWithServer(theme: 'light' | 'dark', width: number, script: ReturnType<typeof openAiStream>[]): Promise<Amber> {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-elicit-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  model = await startModel(script);
  const { tools: _fixtureTools, ...core } = coreFor(model, workspace);
  return await startAmber({
    theme,
    viewport: { width, height: 900 },
    core,
    seed: async (shell) => {
      shell.app.pluginSecrets.write('mcp', { servers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } });
      await shell.app.plugins.setState('mcp', true);
      await expect.poll(() => shell.app.plugins.registries.tools.get(TOOL) !== undefined, { timeout: 20_000 }).toBe(true);
    },
  });
}

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 900 },
] as const) {
  test(`a server's form on the running tool card is filled from the keyboard and accepted (${theme})`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'amber-mcp-elicit-'));
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace);
    model = await startModel([
      openAiStream({ text: 'Asking you through the server.', toolCalls: [{ id: 'call_form', name: TOOL, arguments: {} }] }),
      openAiStream({ text: 'Thanks, noted.' }),
      openAiStream({ text: 'done' }),
    ]);
    const { tools: _fixtureTools, ...core } = coreFor(model, workspace);
    amber = await startAmber({
      theme,
      viewport: { width, height: 900 },
      core,
      seed: async (shell) => {
        shell.app.pluginSecrets.write('mcp', { servers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } });
        await shell.app.plugins.setState('mcp', true);
        await expect.poll(() => shell.app.plugins.registries.tools.get(TOOL) !== undefined, { timeout: 20_000 }).toBe(true);
      },
    });
    const { page } = amber;
    await amber.open();
    await page.keyboard.press('Control+n');
    await page.getByTestId('composer').fill('Ask me for my details.');
    await page.keyboard.press('Enter');
    const approval = page.getByTestId('approval-dialog');
    await approval.filter({ hasText: TOOL }).waitFor();
    await approval.getByRole('button', { name: 'Allow once' }).click();

    const form = page.getByTestId('tool-card').getByTestId('tool-elicitation');
    await form.waitFor({ timeout: 20_000 });
    // Not in a dialog: the open conversation's call is answered on its card.
    expect(await page.getByTestId('elicitation-dialog').count()).toBe(0);
    await expect.poll(() => form.getByRole('heading').textContent()).toBe('everything asks you');
    await expect.poll(() => form.textContent()).toContain('Please provide inputs for the following fields:');
    // The defaults are filled in: text, integer, number, choices titled and not, several choices.
    expect(await form.getByLabel('String with default', { exact: true }).inputValue()).toBe('It was a dark and stormy night.');
    expect(await form.getByLabel('Integer', { exact: true }).inputValue()).toBe('42');
    expect(await form.getByLabel('Titled Single Select Enum', { exact: true }).inputValue()).toBe('hero-1');
    expect(await form.getByLabel('Legacy Titled Single Select Enum', { exact: true }).locator('option:checked').textContent()).toBe('Cats');
    expect(await form.getByRole('checkbox', { name: 'Tuna' }).isChecked()).toBe(true);

    // Accept with the required name empty: the form says why and the focus goes to the field.
    await form.getByTestId('elicitation-accept').click();
    await expect.poll(() => form.getByRole('alert').first().textContent()).toBe('Fill this in: it is required.');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('text');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await form.getByLabel('String with email format', { exact: true }).fill('not an email');
    await form.getByLabel('String with email format', { exact: true }).blur();
    await expect.poll(() => form.getByRole('alert').allTextContents()).toEqual(['Enter an email address, like name@example.com.']);
    await form.getByLabel('String with email format', { exact: true }).fill('ada@example.com');
    await form.getByLabel('Integer', { exact: true }).fill('7');
    expect(await seriousViolations(page, '[data-testid=tool-elicitation]')).toEqual([]);
    await form.getByLabel('Integer', { exact: true }).blur();
    await form.getByRole('heading').scrollIntoViewIfNeeded();
    await page.getByTestId('tool-card').screenshot({ path: docsShot(`mcp-elicitation-${theme}.png`), animations: 'disabled' });

    // Enter in a field submits the form, as Accept does.
    await form.getByLabel('String with email format', { exact: true }).press('Enter');
    await form.waitFor({ state: 'detached' });
    await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Thanks, noted.' }).waitFor();
    const card = page.getByTestId('tool-card');
    await card.getByRole('button').first().click();
    await expect.poll(() => card.textContent()).toContain('User provided the requested information');
    await expect.poll(() => card.textContent()).toContain('Name: Ada Lovelace');
    await expect.poll(() => card.textContent()).toContain('Favorite Integer: 7');
  });
}

test('a form of a conversation not open is asked in a dialog: the focus is in its first field, and Escape cancels it', async () => {
  amber = await startWithServer('light', 1280, [
    openAiStream({ text: 'Asking you through the server.', toolCalls: [{ id: 'call_form', name: TOOL, arguments: {} }] }),
    openAiStream({ text: 'You cancelled it.' }),
    openAiStream({ text: 'done' }),
  ]);
  const { page } = amber;
  await amber.open();
  await page.keyboard.press('Control+n');
  await page.getByTestId('composer').fill('Ask me for my details.');
  await page.keyboard.press('Enter');
  const approval = page.getByTestId('approval-dialog');
  await approval.filter({ hasText: TOOL }).waitFor();
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await page.getByTestId('tool-elicitation').waitFor({ timeout: 20_000 });
  const asking = await page.locator('[data-session-id]').first().getAttribute('data-session-id');

  // Another conversation: the form is no longer on a card in view, so it asks in a dialog.
  await page.keyboard.press('Control+n');
  const dialog = page.getByTestId('elicitation-dialog');
  await dialog.waitFor();
  await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('everything asks you');
  // The focus is in the form's first field (the server's name field), not in the message box behind the dialog.
  await expect
    .poll(() =>
      page.evaluate(() => (document.activeElement?.closest('[data-testid=elicitation-dialog]') ? document.activeElement.id.endsWith('-name') : false)),
    )
    .toBe(true);
  expect(await seriousViolations(page, '[data-testid=elicitation-dialog]')).toEqual([]);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.locator(`[data-session-id="${asking}"]`).click();
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'You cancelled it.' }).waitFor();
  const card = page.getByTestId('tool-card');
  await card.getByRole('button').first().click();
  await expect.poll(() => card.textContent()).toContain('User cancelled');
});
