// Settings → MCP servers as a user clicks them: paste the reference server's mcpServers JSON, see it
// connected with its tool count and its tools among the MCP plugin's contributions; switch it off and
// its tools are gone.
import { afterEach, expect, test } from 'vitest';
import { EVERYTHING_ENTRY } from '../mcp/everything-server.ts';
import { type Amber, startAmber } from './harness.ts';

let amber: Amber | null = null;

afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('importing an mcpServers JSON connects the server with its tool count; switching it off removes its tools', async () => {
  amber = await startAmber();
  const { page } = amber;
  await amber.open();
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('settings-mcp');
  await section.scrollIntoViewIfNeeded();
  await section.getByLabel(/Import servers/).fill(JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] } } }));
  await section.getByRole('button', { name: 'Import' }).click();

  const row = section.locator('[data-testid=mcp-server][data-name=everything]');
  await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
  const tools = amber.shell.app.plugins.registries.tools.specs().filter((t) => t.name.startsWith('mcp__everything__')).length;
  expect(tools).toBeGreaterThan(5);
  // The count shown is the server's tool count; read_resource is Amber's own tool beside them.
  await expect.poll(() => row.getByTestId('mcp-server-counts').textContent()).toMatch(new RegExp(`^${tools - 1} tools · \\d+ resources · \\d+ prompts$`));
  const mcpPlugin = page.locator('[data-testid=plugin-row][data-id=mcp]');
  await expect.poll(() => mcpPlugin.getAttribute('data-state')).toBe('active');
  await expect.poll(() => mcpPlugin.getByTestId('plugin-contributions').textContent()).toContain('mcp__everything__echo');
  await row.scrollIntoViewIfNeeded();
  await amber.screenshot('settings-mcp');

  await row.getByRole('switch', { name: 'MCP server everything' }).click();
  await expect.poll(() => row.getAttribute('data-state')).toBe('off');
  await expect.poll(() => amber!.shell.app.plugins.registries.tools.specs().filter((t) => t.name.startsWith('mcp__')).length).toBe(0);
  await expect.poll(async () => (await page.getByTestId('plugin-contributions').allTextContents()).join(' ')).not.toContain('mcp__everything__');
});
