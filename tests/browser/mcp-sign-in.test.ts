// Signing in to a remote MCP server as a user does: the server added in Settings → MCP servers answers 401
// with OAuth metadata, its row says "Sign in needed"; Sign in opens the loopback authorization server's page
// in a new window, which approves and comes back to Amber's loopback listener; the row turns Connected with
// Sign out. The model's call to the server's tool then answers; after an app restart (a new headless shell
// on the same data folder) the tool answers again without signing in.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import { type OAuthMcpServer, startOAuthMcpServer } from '../fixtures/oauth-mcp-server.ts';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer | null = null;
let oauth: OAuthMcpServer | null = null;
let dir: string | null = null;

afterEach(async () => {
  await amber?.close();
  amber = null;
  await model?.close();
  model = null;
  await oauth?.close();
  oauth = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A new conversation whose model calls the server's whoami tool once (allowed once), and the tool card's text. */
async function callWhoami(page: Page, m: ProviderServer, marker: string): Promise<string> {
  m.setScript([
    openAiStream({ text: 'Asking the server.', toolCalls: [{ id: `call_${marker}`, name: 'mcp__remote__whoami', arguments: {} }] }),
    openAiStream({ text: `Finished ${marker}.` }),
    openAiStream({ text: 'done' }),
  ]);
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Who am I on the remote server?');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'mcp__remote__whoami' }).waitFor();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await page
    .locator('[data-testid=message][data-role=assistant]:not([data-streaming])')
    .filter({ hasText: `Finished ${marker}.` })
    .waitFor();
  const card = page.getByTestId('tool-card').last();
  await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
  await card.click();
  await expect.poll(() => card.textContent()).toContain('signed in as tester');
  return (await card.textContent()) ?? '';
}

test('Sign in from the MCP servers screen connects a remote server, its tool answers, and after a restart it answers without signing in again', async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-sign-in-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  oauth = await startOAuthMcpServer();
  model = await startModel();
  const core = { ...coreFor(model, workspace) };
  delete core.tools;
  amber = await startAmber({ core });
  const { page, context } = amber;
  await amber.open();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-mcp').click();
  const section = page.getByTestId('settings-mcp');
  await section.getByTestId('mcp-add').click();
  const form = section.getByTestId('mcp-form');
  await form.getByTestId('mcp-form-name').fill('remote');
  await form.getByTestId('mcp-form-transport-http').check();
  await form.getByTestId('mcp-form-url').fill(oauth.url);
  await form.getByTestId('mcp-form-save').click();

  const row = section.locator('[data-testid=mcp-server][data-name=remote]');
  await expect.poll(() => row.getByTestId('mcp-server-state').textContent(), { timeout: 20_000 }).toBe('Sign in needed');
  expect(await row.getByTestId('mcp-server-error').textContent()).toMatch(/needs you to sign in.*Press Sign in on its row/);
  await row.scrollIntoViewIfNeeded();
  await row.screenshot({ path: docsShot('mcp-sign-in-needed.png'), animations: 'disabled' });

  // Sign in opens the authorization page in a new window; the server approves and sends it back to Amber.
  const popup = context.waitForEvent('page');
  await row.getByTestId('mcp-sign-in').click();
  const browserTab = await popup;
  await browserTab.getByText('You can close this tab and go back to Amber.').waitFor();
  expect(new URL(browserTab.url()).hostname).toBe('127.0.0.1');
  await browserTab.close();
  await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  await row.getByTestId('mcp-sign-out').waitFor();
  expect(await row.getByTestId('mcp-server-counts').textContent()).toMatch(/^2 tools/);
  await row.screenshot({ path: docsShot('mcp-signed-in.png'), animations: 'disabled' });
  // The token is in the key file, not the database's settings.
  expect(amber.shell.app.sessions.getSetting('plugin.mcp.config') ?? '').not.toContain(oauth.issued[0]!.token);

  await page.keyboard.press('Escape');
  await callWhoami(page, model, 'first');

  // A new app on the same data folder: connected without a sign-in, and the tool answers.
  await amber.restart();
  const after = amber.page;
  await after.getByTestId('open-settings').click();
  await after.getByTestId('settings-tab-mcp').click();
  const again = after.getByTestId('settings-mcp').locator('[data-testid=mcp-server][data-name=remote]');
  await expect.poll(() => again.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  await again.getByTestId('mcp-sign-out').waitFor();
  await after.keyboard.press('Escape');
  await callWhoami(after, model, 'again');
  expect(oauth.issued.map((i) => i.grant)).toEqual(['authorization_code']);
  expect(oauth.registrations).toHaveLength(1);
});
