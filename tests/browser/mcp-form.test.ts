// Settings → MCP servers → Add server and Edit as a user clicks them: a stdio server (the reference
// server) added through the form connects with its tool count; a mistyped field says what to change before
// anything is sent; an edit of the call timeout is saved and the server reconnects; Remove forgets it. An
// HTTP server that answers 401 shows needs authorization until an Authorization header is added.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import type { McpListing } from '../../src/shared/api/index.ts';
import { startAuthProxy } from '../mcp/auth-proxy.ts';
import { EVERYTHING_ENTRY, startEverythingHttp } from '../mcp/everything-server.ts';
import { type Amber, startAmber, docsShot } from './harness.ts';

let amber: Amber | null = null;

// The app's CSP forbids inline scripts, so axe goes in through the debugger protocol.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical WCAG 2.1 A/AA violations axe finds inside the MCP form. */
async function auditForm(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(ctx: Element, opts: unknown): Promise<Result> } }).axe;
    const result = await axe.run(document.querySelector('[data-testid=mcp-form]')!, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}`));
  });
}

afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('a stdio server added through the form connects with its tool count, its timeout is edited, and it is removed', async () => {
  amber = await startAmber();
  const { page } = amber;
  const app = () => amber!.shell.app;
  await amber.open();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-mcp').click();
  const section = page.getByTestId('settings-mcp');
  await section.getByTestId('mcp-add').click();
  const form = section.getByTestId('mcp-form');

  // Checked as it is typed: a bad name and a relative folder, once left, say what to change, and nothing is saved.
  await form.getByTestId('mcp-form-name').fill('every thing');
  await form.getByTestId('mcp-form-name').blur();
  await expect.poll(() => form.locator('[data-testid=mcp-form-error][data-field=name]').textContent()).toMatch(/^Name: A server name is 1-64 letters/);
  await form.getByTestId('mcp-form-name').fill('everything');
  await form.getByTestId('mcp-form-command').fill(process.execPath);
  await form.getByTestId('mcp-form-args').fill(`${EVERYTHING_ENTRY}\nstdio`);
  await form.getByTestId('mcp-form-cwd').fill('relative/folder');
  await form.getByTestId('mcp-form-cwd').blur();
  await expect.poll(() => form.locator('[data-testid=mcp-form-error][data-field=cwd]').textContent()).toMatch(/must be a full path/);
  // Save is off (aria-disabled, still pressable): pressed, it saves nothing.
  expect(await form.getByTestId('mcp-form-save').getAttribute('aria-disabled')).toBe('true');
  await form.getByTestId('mcp-form-save').click({ force: true });
  expect(app().sessions.getSetting('plugin.mcp.config')).toBeNull();
  await form.getByTestId('mcp-form-cwd').fill('');
  await expect.poll(() => form.getByTestId('mcp-form-cwd-hint').textContent()).toMatch(/^Empty: the default workspace.*shared by every conversation/);
  await form.getByTestId('mcp-form-add-env').click();
  await form.getByLabel('Environment variable 1 name').fill('AMBER_MCP_TOKEN');
  await form.getByLabel('Environment variable 1 value').fill('tok-form-secret-8');
  await form.getByTestId('mcp-form-pair').getByRole('checkbox').check();
  await form.getByTestId('mcp-form-timeout').fill('45');
  await expect.poll(() => form.getByTestId('mcp-form-error').count()).toBe(0);
  // The transport is the app's own segmented control, and the form has no browser-default fieldsets or radios.
  expect(await form.getByRole('radio', { name: 'Command (stdio)' }).getAttribute('aria-checked')).toBe('true');
  expect(await form.locator('fieldset, input[type=radio]').count()).toBe(0);
  // Test before saving: the server is connected once and its tools listed; nothing is saved.
  await form.getByTestId('mcp-form-test').click();
  const trial = form.locator('[data-testid=mcp-form-test-result][data-ok=true]');
  await trial.waitFor({ timeout: 20_000 });
  expect(await trial.textContent()).toMatch(/^Connected: \d+ tools\./);
  expect(await trial.locator('li code').allTextContents()).toContain('echo');
  expect(app().sessions.getSetting('plugin.mcp.config')).toBeNull();
  await trial.scrollIntoViewIfNeeded();
  await trial.screenshot({ path: docsShot('mcp-form-test.png'), animations: 'disabled' });
  await form.getByTestId('mcp-form-save').click();

  const row = section.locator('[data-testid=mcp-server][data-name=everything]');
  await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  await expect.poll(() => form.count()).toBe(0);
  await expect.poll(() => row.getByTestId('mcp-server-counts').textContent()).toMatch(/^\d+ tools · \d+ resources · \d+ prompts$/);
  const shown = Number(/^(\d+) tools/.exec((await row.getByTestId('mcp-server-counts').textContent()) ?? '')![1]);
  expect(shown).toBeGreaterThan(5);
  await expect
    .poll(
      () =>
        app()
          .plugins.registries.tools.specs()
          .filter((t) => t.name.startsWith('mcp__everything__') && t.name !== 'mcp__everything__read_resource').length,
    )
    .toBe(shown);
  expect(app().sessions.getSetting('plugin.mcp.config')).not.toContain('tok-form-secret-8');

  // Edit: the secret shows masked; the timeout changes; saving reconnects the server with it.
  await row.getByTestId('mcp-edit').click();
  const edit = section.getByTestId('mcp-form');
  await expect.poll(() => edit.getByTestId('mcp-form-timeout').inputValue()).toBe('45');
  const secret = edit.getByLabel('Environment variable 1 value');
  expect(await secret.inputValue()).toBe('');
  expect(await secret.getAttribute('type')).toBe('password');
  expect(await secret.getAttribute('placeholder')).toMatch(/stored; type to replace/);
  expect(await page.content()).not.toContain('tok-form-secret-8');
  await edit.getByTestId('mcp-form-timeout').fill('120');
  expect(await auditForm(page)).toEqual([]);
  await row.scrollIntoViewIfNeeded();
  await amber.screenshot('settings-mcp-edit');
  // The server reconnects: the core tells it connecting, then connected again.
  const reconnected = new Promise<void>((resolve) => {
    let connecting = false;
    const sub = app().onDidEmit(({ event, payload }) => {
      if (event !== 'mcp.changed') return;
      const state = (payload as McpListing).servers.find((s) => s.name === 'everything')?.state;
      connecting ||= state === 'connecting';
      if (!connecting || state !== 'connected') return;
      sub.dispose();
      resolve();
    });
  });
  await edit.getByTestId('mcp-form-save').click();
  await reconnected;
  expect(JSON.parse(app().sessions.getSetting('plugin.mcp.config') ?? '{}').servers?.everything?.timeoutMs).toBe(120_000);
  await expect.poll(() => row.getAttribute('data-state')).toBe('connected');
  await expect.poll(() => app().plugins.registries.tools.get('mcp__everything__get-env') !== undefined).toBe(true);
  const env = (await app().plugins.registries.tools.execute('mcp__everything__get-env', {})).content[0]!.text;
  expect(env).toContain('tok-form-secret-8');

  await row.getByTestId('mcp-remove').click();
  await expect.poll(() => section.locator('[data-testid=mcp-server]').count()).toBe(0);
  await expect
    .poll(
      () =>
        app()
          .plugins.registries.tools.specs()
          .filter((t) => t.name.startsWith('mcp__')).length,
    )
    .toBe(0);
});

test('an HTTP server that answers 401 shows needs authorization with what to do; an Authorization header added in Edit connects it', async () => {
  const upstream = await startEverythingHttp();
  const proxy = await startAuthProxy('tok-browser-2', new URL(upstream.url).origin);
  try {
    amber = await startAmber();
    const { page } = amber;
    await amber.open();
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-mcp').click();
    const section = page.getByTestId('settings-mcp');
    await section.getByTestId('mcp-add').click();
    const form = section.getByTestId('mcp-form');
    await form.getByTestId('mcp-form-name').fill('remote');
    await form.getByTestId('mcp-form-transport-http').check();
    await form.getByTestId('mcp-form-url').fill('ftp://nowhere');
    await form.getByTestId('mcp-form-url').blur();
    await expect.poll(() => form.locator('[data-testid=mcp-form-error][data-field=url]').textContent()).toMatch(/starting with http:\/\/ or https:\/\//);
    await form.getByTestId('mcp-form-url').fill(proxy.url);
    await form.getByTestId('mcp-form-save').click();

    const row = section.locator('[data-testid=mcp-server][data-name=remote]');
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('unauthorized');
    expect(await row.getByTestId('mcp-server-state').textContent()).toBe('Needs authorization');
    expect(await row.getByTestId('mcp-server-error').textContent()).toMatch(
      /needs authorization: it answered 401 Unauthorized\. Add an Authorization header .*Edit, and save\./,
    );
    await row.scrollIntoViewIfNeeded();
    await amber.screenshot('settings-mcp-needs-authorization');

    await row.getByTestId('mcp-edit').click();
    const edit = section.getByTestId('mcp-form');
    await edit.getByTestId('mcp-form-add-headers').click();
    await edit.getByLabel('Header 1 name').fill('Authorization');
    await edit.getByLabel('Header 1 value').fill('Bearer tok-browser-2');
    // An Authorization header is always secret.
    expect(await edit.getByLabel('Header 1 value').getAttribute('type')).toBe('password');
    expect(await edit.getByTestId('mcp-form-pair').getByRole('checkbox').isChecked()).toBe(true);
    await edit.getByTestId('mcp-form-save').click();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
    expect(amber.shell.app.sessions.getSetting('plugin.mcp.config')).not.toContain('tok-browser-2');

    // Given another URL, the form says before saving that the stored header goes, and it does.
    await row.getByTestId('mcp-edit').click();
    const moved = section.getByTestId('mcp-form');
    await moved.getByTestId('mcp-form-url').waitFor();
    expect(await moved.getByTestId('mcp-form-drops').count()).toBe(0);
    await moved.getByTestId('mcp-form-url').fill(`${new URL(upstream.url).origin}/elsewhere`);
    await expect.poll(() => moved.getByTestId('mcp-form-drops').textContent()).toBe('Changing the URL drops the stored header Authorization; enter it again.');
    expect(await moved.getByLabel('Header 1 value').getAttribute('placeholder')).toBe('dropped on save; type it again');
    await moved.getByTestId('mcp-form-url').fill(proxy.url);
    await expect.poll(() => moved.getByTestId('mcp-form-drops').count()).toBe(0);
  } finally {
    await amber?.close();
    amber = null;
    await proxy.close();
    await upstream.close();
  }
});
