// Settings → MCP servers as a user clicks them: paste the reference server's mcpServers JSON, see it
// connected with its tool count and its tools among the MCP plugin's contributions; switch it off and
// its tools are gone.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { EVERYTHING_ENTRY } from '../mcp/everything-server.ts';
import { type Amber, startAmber, docsShot } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

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

test('importing an mcpServers JSON connects the server with its tool count; trusting it is stored; switching it off removes its tools', async () => {
  amber = await startAmber();
  const { page } = amber;
  await amber.open();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-mcp').click();
  const section = page.getByTestId('settings-mcp');
  await section.scrollIntoViewIfNeeded();
  await section
    .getByLabel(/Import servers/)
    .fill(JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } }));
  await section.getByRole('button', { name: 'Import' }).click();

  const row = section.locator('[data-testid=mcp-server][data-name=everything]');
  await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  const tools = amber.shell.app.plugins.registries.tools.specs().filter((t) => t.name.startsWith('mcp__everything__')).length;
  expect(tools).toBeGreaterThan(5);
  // The count shown is the server's tool count; read_resource is Amber's own tool beside them.
  await expect.poll(() => row.getByTestId('mcp-server-counts').textContent()).toMatch(new RegExp(`^${tools - 1} tools · \\d+ resources · \\d+ prompts$`));
  await page.getByTestId('settings-tab-plugins').click();
  const mcpPlugin = page.locator('[data-testid=plugin-row][data-id=mcp]');
  await expect.poll(() => mcpPlugin.getAttribute('data-state')).toBe('active');
  await expect.poll(() => mcpPlugin.getByTestId('plugin-contributions').textContent()).toContain('mcp__everything__echo');
  await page.getByTestId('settings-tab-mcp').click();
  await row.scrollIntoViewIfNeeded();
  await amber.screenshot('settings-mcp');

  // Trust: the server's read-only tools, and one tool by name, stored by main where the policy reads them.
  const trust = () => JSON.parse(amber!.shell.app.sessions.getSetting('mcp.trust') ?? '{}') as unknown;
  await row.getByTestId('mcp-trust-server').click();
  await expect.poll(trust).toEqual({ servers: ['everything'], tools: [] });
  // One tool, from the server's list of tools, by its switch: no tool names to type.
  await row.getByTestId('mcp-tools-toggle').click();
  const toolSwitch = row.getByRole('switch', { name: 'Trust mcp__everything__toggle-simulated-logging' });
  await toolSwitch.click();
  await expect.poll(() => toolSwitch.getAttribute('aria-checked')).toBe('true');
  expect(await row.locator('[data-testid=mcp-tool] code').allTextContents()).toContain('echo');
  await page.screenshot({ path: docsShot('mcp-server-tools.png'), animations: 'disabled' });
  await expect.poll(() => row.getByTestId('mcp-trust-server').isChecked()).toBe(true);
  await row.getByTestId('mcp-trust-server').click();
  await expect.poll(trust).toEqual({ servers: [], tools: ['mcp__everything__toggle-simulated-logging'] });

  await row.getByRole('switch', { name: 'MCP server everything' }).click();
  await expect.poll(() => row.getAttribute('data-state')).toBe('off');
  await expect.poll(() => amber!.shell.app.plugins.registries.tools.specs().filter((t) => t.name.startsWith('mcp__')).length).toBe(0);
  // The trusted tool of a server not connected now is listed apart, where its trust can be taken back.
  await expect
    .poll(() => section.getByTestId('mcp-trusted-tool').allTextContents())
    .toEqual([expect.stringContaining('mcp__everything__toggle-simulated-logging')]);
  await page.getByTestId('settings-tab-plugins').click();
  await expect.poll(async () => (await page.getByTestId('plugin-contributions').allTextContents()).join(' ')).not.toContain('mcp__everything__');
});

test("the model's call to an MCP tool asks first, then shows the server's answer in its tool card", async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-card-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  model = await startModel();
  // The loopback model, with the plugins' tools (the MCP ones among them).
  const core = { ...coreFor(model, workspace) };
  delete core.tools;
  amber = await startAmber({
    core,
    seed: async (shell) => {
      shell.app.pluginSecrets.write('mcp', { servers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } });
      await shell.app.plugins.setState('mcp', true);
      const tools = shell.app.plugins.registries.tools;
      await expect.poll(() => tools.get('mcp__everything__echo') !== undefined, { timeout: 20_000 }).toBe(true);
    },
  });
  model.setScript([
    openAiStream({ text: 'Asking the server.', toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'hello from Amber' } }] }),
    openAiStream({ text: 'Finished.' }),
    openAiStream({ text: 'done' }),
  ]);
  const { page } = amber;
  await amber.open();
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Echo hello.');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('approval-dialog');
  await dialog.filter({ hasText: 'mcp__everything__echo' }).waitFor();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Finished.' }).waitFor();
  const card = page.getByTestId('tool-card');
  await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
  await card.click();
  await expect.poll(() => card.textContent()).toContain('Echo: hello from Amber');
  await card.scrollIntoViewIfNeeded();
  await amber.screenshot('mcp-tool-card');
});

test("a server prompt typed as /mcp.<server>.<prompt> fills the message box, and the attach menu adds a resource's text to it", async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-mcp-prompt-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  model = await startModel();
  const core = { ...coreFor(model, workspace) };
  delete core.tools;
  amber = await startAmber({
    core,
    seed: async (shell) => {
      shell.app.pluginSecrets.write('mcp', { servers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } });
      await shell.app.plugins.setState('mcp', true);
      const tools = shell.app.plugins.registries.tools;
      await expect.poll(() => tools.get('mcp__everything__echo') !== undefined, { timeout: 20_000 }).toBe(true);
    },
  });
  const { page } = amber;
  await amber.open();
  await page.getByTestId('new-chat').click();
  const composer = page.getByTestId('composer');
  await composer.fill('/mcp.everything.args-');
  await page.getByTestId('command-completion').filter({ hasText: 'mcp.everything.args-prompt' }).waitFor();
  await composer.fill('/mcp.everything.args-prompt Oslo');
  await page.keyboard.press('Enter');
  await expect.poll(() => composer.inputValue()).toBe("What's weather in Oslo?");

  await page.getByTestId('mcp-attach').click();
  const first = page.getByTestId('mcp-resource').first();
  const uri = /everything: (\S+)/.exec((await first.textContent()) ?? '')?.[1];
  expect(uri).toMatch(/^demo:\/\/resource\//);
  await first.click();
  await expect.poll(() => composer.inputValue()).toContain(`What's weather in Oslo?\n\n[resource <${uri}>]\n`);
  await amber.screenshot('mcp-prompt-and-resource');
});
