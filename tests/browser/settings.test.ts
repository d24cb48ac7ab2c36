// Settings, panels, the status bar and commands, as a user clicks them, against real plugin processes.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { guardWithAllowances } from '../../src/main/agent-bridge/index.ts';
import type { HeadlessOptions } from '../../src/main/headless/headless-shell.ts';
import type { PluginListing } from '../../src/shared/api/index.ts';
import { openAiStream } from '../fixtures/wire/wire-fixtures.ts';
import type { ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, SCREENSHOTS, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

let amber: Amber | null = null;
let model: ProviderServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-settings-'));
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  model = await startModel();
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The loopback model, behind the plugins' allowances as every provider call is in the app; the tools are the plugins'. */
function guardedCore(): NonNullable<HeadlessOptions['core']> {
  const core = { ...coreFor(model, workspace) };
  delete core.tools;
  const resolve = core.resolveProvider!;
  return {
    ...core,
    resolveProvider: async (ref) => {
      const resolved = await resolve(ref);
      return { ...resolved, stream: guardWithAllowances(ref.provider, resolved.stream, amber!.shell.app.plugins.registries.allowances) };
    },
  };
}

async function openChat(options: { theme?: 'light' | 'dark' } = {}): Promise<Amber> {
  amber = await startAmber({ core: guardedCore(), ...options });
  await amber.open();
  await amber.page.getByTestId('new-chat').click();
  await amber.page.getByTestId('composer').waitFor();
  return amber;
}

async function type(a: Amber, text: string): Promise<void> {
  await a.page.getByTestId('composer').fill(text);
  await a.page.keyboard.press('Enter');
}

const pluginRow = (a: Amber, id: string) => a.page.locator(`[data-testid=plugin-row][data-id=${id}]`);
const segment = (a: Amber, source: string) => a.page.locator(`[data-testid=status-segment][data-source=${source}]`);
const assistantWith = (a: Amber, text: string) => a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: text });
/** The tool names the model was offered in its n-th request. */
const offeredTools = (n: number): string[] =>
  ((model.requests[n]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);

test('a plugin switched off loses its tool, status segment and panel at once; switched on they return', async () => {
  model.setScript([
    openAiStream({ text: 'Greeting.', toolCalls: [{ id: 'call_1', name: 'example_greet', arguments: { name: 'Ada' } }] }),
    openAiStream({ text: 'Greeted Ada.' }),
    // The silent confirm turn after the run that used the tool: finished.
    openAiStream({ text: 'done' }),
    openAiStream({ text: 'No greeting tool now.' }),
  ]);
  const a = await openChat();
  const tools = () => a.shell.app.plugins.registries.tools.specs().map((t) => t.name);
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  const row = pluginRow(a, 'example');
  await row.waitFor();
  // Grouped by category; a category Amber does not know gets its own heading.
  await a.page.locator('[data-testid=plugin-group][data-category=provider]').waitFor();
  expect(await row.getAttribute('data-state')).not.toBe('active');
  await a.screenshot('settings');

  await row.getByTestId('plugin-toggle').click();
  await a.page.locator('[data-testid=plugin-row][data-id=example][data-state=active]').waitFor();
  await row.getByTestId('plugin-contributions').getByText('example_greet').waitFor();
  expect(tools()).toContain('example_greet');
  await segment(a, 'example').waitFor();
  await a.screenshot('settings-plugins');
  await a.page.getByTestId('close-settings').click();
  await a.page.getByTestId('toggle-panels').click();
  const panel = a.page.locator('[data-testid=plugin-panel][data-plugin=example]');
  await panel.waitFor();
  // The model is offered the plugin's tool and calls it; the plugin updates its segment, live.
  await type(a, 'Greet Ada.');
  await assistantWith(a, 'Greeted Ada.').waitFor();
  expect(offeredTools(0)).toContain('example_greet');
  await a.page.locator('[data-testid=tool-card][data-status=ok]').waitFor();
  await segment(a, 'example').filter({ hasText: 'greeted 1×' }).waitFor();

  // Off from the command line: everything it contributed goes, without a restart.
  await type(a, '/set plugin off example');
  await a.page.getByTestId('status-message').filter({ hasText: 'Example is off.' }).waitFor();
  await panel.waitFor({ state: 'detached' });
  await segment(a, 'example').waitFor({ state: 'detached' });
  expect(tools()).not.toContain('example_greet');
  await type(a, 'Greet again?');
  await assistantWith(a, 'No greeting tool now.').waitFor();
  expect(offeredTools(3)).not.toContain('example_greet');
  expect(offeredTools(3)).toContain('read');

  // On again from Settings: it all comes back.
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  await row.getByTestId('plugin-toggle').click();
  await a.page.locator('[data-testid=plugin-row][data-id=example][data-state=active]').waitFor();
  await segment(a, 'example').waitFor();
  expect(tools()).toContain('example_greet');
  // A user plugin dropped into the plugin folder appears after Rescan, under its own category's heading.
  expect(await a.page.getByTestId('plugin-folder').textContent()).toBe(join(a.dataDir, 'plugins'));
  cpSync(join(import.meta.dirname, '../fixtures/user-plugins/hello_user'), join(a.dataDir, 'plugins', 'hello_user'), { recursive: true });
  await a.page.getByTestId('rescan-plugins').click();
  const testing = a.page.locator('[data-testid=plugin-group][data-category=testing]');
  await testing.getByRole('heading', { name: 'Testing' }).waitFor();
  // It starts off whatever its manifest says; switching it on asks first (see the test below).
  await testing.locator('[data-testid=plugin-row][data-id=hello_user][data-state=registered]').waitFor();
  await pluginRow(a, 'hello_user').getByTestId('plugin-toggle').click();
  await a.page.getByTestId('plugin-consent-confirm').click();
  await testing.locator('[data-testid=plugin-row][data-id=hello_user][data-state=active]').waitFor();
  await segment(a, 'hello_user').waitFor();
  await a.page.getByTestId('close-settings').click();
  await panel.waitFor();
  // Its panel's action reaches the plugin, and the view it sends back is drawn.
  await panel.getByTestId('panel-action').filter({ hasText: 'Reset counters' }).click();
  await panel.getByText('Greetings').waitFor();
});

test('the first switch-on of a user plugin says what it may do and asks; Cancel leaves it off; confirmed once, it is not asked again', async () => {
  const a = await openChat();
  cpSync(join(import.meta.dirname, '../fixtures/user-plugins/hello_user'), join(a.dataDir, 'plugins', 'hello_user'), { recursive: true });
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  await a.page.getByTestId('rescan-plugins').click();
  const row = pluginRow(a, 'hello_user');
  await a.page.locator('[data-testid=plugin-row][data-id=hello_user][data-state=registered]').waitFor();
  await row.getByTestId('plugin-needs-confirmation').waitFor();

  // The question: the rights it runs with, and that what it adds is not known before it has run.
  await row.getByTestId('plugin-toggle').click();
  const dialog = a.page.getByRole('alertdialog', { name: 'Turn on Hello (user plugin)?' });
  await dialog.waitFor();
  const rights = await dialog.getByTestId('plugin-consent-rights').textContent();
  expect(rights).toContain('runs with your rights');
  expect(rights).toContain('read and change your files');
  expect(rights).toContain('use the network');
  expect(rights).toContain('run other programs');
  expect(await dialog.getByTestId('plugin-consent-adds').textContent()).toContain('listed here once it has run');
  // Cancel is where the focus starts, and it changes nothing.
  expect(await a.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('plugin-consent-cancel');
  await a.screenshot('settings-plugin-consent');
  await a.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await row.getAttribute('data-state')).toBe('registered');
  expect(a.shell.app.plugins.get('hello_user')).toMatchObject({ enabled: false, pid: null });

  // Confirmed: it runs.
  await row.getByTestId('plugin-toggle').click();
  await dialog.getByTestId('plugin-consent-confirm').click();
  await a.page.locator('[data-testid=plugin-row][data-id=hello_user][data-state=active]').waitFor();
  await row.getByTestId('plugin-needs-confirmation').waitFor({ state: 'detached' });
  expect(a.shell.app.plugins.get('hello_user')).toMatchObject({ enabled: true, needsConfirmation: false });

  // Off and on again: no second question.
  await row.getByTestId('plugin-toggle').click();
  await a.page.locator('[data-testid=plugin-row][data-id=hello_user][data-state=deactivated]').waitFor();
  await row.getByTestId('plugin-toggle').click();
  await a.page.locator('[data-testid=plugin-row][data-id=hello_user][data-state=active]').waitFor();
  expect(await a.page.getByTestId('plugin-consent').count()).toBe(0);

  // It runs in a process of its own until the user groups it; grouped, it restarts in the user plugins'
  // shared process, never the one Amber's own plugins share.
  const own = a.shell.app.plugins.get('hello_user');
  expect(own.process).toBe('own');
  expect(await pluginRow(a, 'metrics').getByTestId('plugin-shared').textContent()).toBe('shared process');
  const group = row.getByTestId('plugin-process');
  expect(await group.isChecked()).toBe(false);
  await group.click();
  await a.page.locator('[data-testid=plugin-row][data-id=hello_user][data-state=active] [data-testid=plugin-process]:checked').waitFor();
  const grouped = a.shell.app.plugins.get('hello_user');
  expect(grouped).toMatchObject({ state: 'active', process: 'shared' });
  expect(grouped.pid).not.toBe(own.pid);
  expect(grouped.pid).not.toBe(a.shell.app.plugins.get('metrics').pid);
  await row.scrollIntoViewIfNeeded();
  await a.screenshot('settings-plugin-process');
});

test('a killed plugin shows as Failed with the reason, and the chat keeps working', async () => {
  model.setScript([openAiStream({ text: 'Still here.' })]);
  const a = await openChat();
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-plugins').click();
  const row = pluginRow(a, 'metrics');
  await a.page.locator('[data-testid=plugin-row][data-id=metrics][data-state=active]').waitFor();
  const listed = await a.shell.api.call('plugins.list', {});
  if (!listed.ok) throw new Error(listed.error.message);
  const pid = (listed.value as PluginListing).plugins.find((p) => p.id === 'metrics')?.pid;
  expect(pid).toBeGreaterThan(0);
  process.kill(pid!, 'SIGKILL');
  await a.page.locator('[data-testid=plugin-row][data-id=metrics][data-state=failed]').waitFor();
  expect(await row.getByTestId('plugin-state').textContent()).toBe('Failed');
  expect(await row.getByTestId('plugin-reason').textContent()).toContain('was killed (SIGKILL)');
  await a.screenshot('settings-plugin-failed');
  await a.page.getByTestId('close-settings').click();
  await type(a, 'Are you still there?');
  await assistantWith(a, 'Still here.').waitFor();
});

test('an allowance that is used up blocks the call with its message; raising the limit lets it through', async () => {
  model.setScript([
    openAiStream({ text: 'First reply.', usage: { input: 90, output: 30 } }),
    openAiStream({ text: 'Third reply.', usage: { input: 10, output: 5 } }),
  ]);
  const a = await openChat();
  // No budget yet: the budget's segment has nothing to say and is left out of the bar.
  await a.page.getByTestId('status-bar').waitFor();
  expect(await a.page.locator('[data-testid=status-segment][data-source=budget]').count()).toBe(0);
  // A plugin command, typed with completion.
  await a.page.getByTestId('composer').fill('/bud');
  await a.page.getByTestId('command-completion').filter({ hasText: 'budget' }).waitFor();
  await a.page.keyboard.press('Tab');
  await expect.poll(() => a.page.getByTestId('composer').inputValue()).toBe('/budget ');
  await a.page.getByTestId('composer').pressSequentially('set session 100 tokens');
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('status-message').filter({ hasText: 'session budget is now' }).waitFor();
  await a.page.locator('[data-testid=status-segment][data-source=budget]').waitFor();

  await type(a, 'First question');
  await assistantWith(a, 'First reply.').waitFor();
  await type(a, 'Second question');
  const blocked = a.page.locator('[data-testid=message][data-role=assistant] .msg-error').filter({ hasText: /budget/i });
  await blocked.waitFor();
  expect(model.requests).toHaveLength(1);

  await a.page.getByTestId('toggle-panels').click();
  await a.page.locator('[data-testid=allowance][data-id=budget][data-level=full]').waitFor();
  const budgetPanel = a.page.locator('[data-testid=plugin-panel][data-plugin=budget]');
  await a.screenshot('panels-allowance-used-up');
  await budgetPanel.getByTestId('panel-action').filter({ hasText: 'Raise the session token limit to 200 tokens' }).click();
  await budgetPanel.getByText('120 tokens of 200 tokens').waitFor();

  await type(a, 'Third question');
  await assistantWith(a, 'Third reply.').waitFor();
  expect(model.requests).toHaveLength(2);
  // The allowance reports its spend at each check: the call that went through brought it under the limit.
  await a.page.locator('[data-testid=allowance][data-id=budget]:not([data-level=full])').waitFor();
});

test('slash commands complete as they are typed, run from the composer and the palette; an unknown one gives the hint', async () => {
  model.setScript([openAiStream({ text: 'Noted.' })]);
  const a = await openChat();
  const composer = a.page.getByTestId('composer');
  await composer.fill('/se');
  await a.page.getByTestId('command-completion').filter({ hasText: 'set' }).waitFor();
  await a.page.keyboard.press('Tab');
  await expect.poll(() => composer.inputValue()).toBe('/set ');
  await composer.pressSequentially('pol');
  // Tab takes a completion only once the list for what was typed has arrived.
  // The /set policy command, then the step to the settings named policy.… (policy.mode, …).
  await expect
    .poll(() => a.page.getByTestId('command-completion').allTextContents())
    .toEqual([expect.stringMatching(/^policy(?!\.)/), expect.stringMatching(/^policy\./)]);
  await a.page.keyboard.press('Tab');
  await expect.poll(() => composer.inputValue()).toBe('/set policy ');
  await expect
    .poll(() => a.page.getByTestId('command-completion').allTextContents())
    .toEqual([expect.stringMatching(/^read/), expect.stringMatching(/^write/), expect.stringMatching(/^yolo/)]);
  await a.screenshot('command-completion');
  await composer.pressSequentially('y');
  await expect.poll(() => a.page.getByTestId('command-completion').allTextContents()).toEqual([expect.stringMatching(/^yolo/)]);
  await a.page.keyboard.press('Tab');
  await expect.poll(() => composer.inputValue()).toBe('/set policy yolo ');
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('status-message').filter({ hasText: 'Tool policy: yolo for this conversation.' }).waitFor();
  expect(await composer.inputValue()).toBe('');

  await type(a, '/frobnicate now');
  const hint = a.page.getByTestId('status-message').filter({ hasText: 'unknown command (try /help)' });
  await hint.waitFor();
  expect(await hint.getAttribute('data-kind')).toBe('error');
  await a.screenshot('status-bar-unknown-command');
  await type(a, '/help');
  await a.page.getByTestId('status-popover').filter({ hasText: '/set — Change a setting' }).waitFor();
  await a.screenshot('status-bar-help');
  // Two slashes send a message that starts with one.
  await type(a, '//usr/bin is where it lives');
  await a.page.locator('[data-testid=message][data-role=user]').filter({ hasText: '/usr/bin is where it lives' }).waitFor();
  await assistantWith(a, 'Noted.').waitFor();

  // The palette lists the same tree; a command that takes an argument goes to the composer.
  await a.page.keyboard.press('Control+Shift+P');
  await a.page.getByTestId('palette-input').fill('label');
  await a.page.getByTestId('palette-item').filter({ hasText: '/label' }).waitFor();
  await a.screenshot('command-palette');
  await a.page.keyboard.press('Enter');
  await expect.poll(() => composer.inputValue()).toBe('/label ');

  // Settings show the mode the command set.
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-policy').click();
  await a.page.locator('[data-testid=policy-yolo][aria-checked=true]').waitFor();
  await a.page.getByTestId('close-settings').click();

  // /new opens the conversation it made; its policy is its own.
  await composer.fill('');
  await type(a, '/new Plans for Tuesday');
  await expect.poll(() => a.page.getByTestId('session-title').textContent()).toBe('Plans for Tuesday');
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-policy').click();
  await a.page.locator('[data-testid=policy-write][aria-checked=true]').waitFor();
  // Provider setup is the first-run form (Add on the Models page); leaving it returns to Settings.
  await a.page.getByTestId('settings-tab-models').click();
  await a.page.getByTestId('setup-provider').click();
  await a.page.getByTestId('first-run').waitFor();
  await a.page.getByRole('button', { name: 'Set up later' }).click();
  await a.page.getByTestId('settings').waitFor();
  await a.page.getByTestId('close-settings').click();

  // Stored rules are listed in Settings and can be removed there.
  a.shell.app.policy.setRules([
    { effect: 'deny', tool: 'bash' },
    { effect: 'allow', tool: 'write', folder: workspace },
  ]);
  await a.page.getByTestId('open-settings').click();
  await a.page.getByTestId('settings-tab-policy').click();
  const rules = a.page.getByTestId('policy-rule');
  await expect.poll(() => rules.count()).toBe(2);
  await a.page.getByTestId('settings-policy').scrollIntoViewIfNeeded();
  await a.screenshot('settings-policy');
  await rules
    .filter({ hasText: 'bash' })
    .getByRole('button', { name: /Remove the rule/ })
    .click();
  await expect.poll(() => rules.allTextContents()).toEqual([expect.stringContaining(`write in ${workspace}`)]);
  expect(a.shell.app.policy.rules()).toEqual([{ id: expect.any(String), effect: 'allow', tool: 'write', folder: workspace }]);
});

test('wallets warn under the threshold the user sets; the status bar updates as a reply streams', async () => {
  model.setScript([
    openAiStream({ text: Array.from({ length: 30 }, (_, i) => `tok${i} `), usage: { input: 1500, output: 45 } }, { pace: { framesPerSecond: 30 } }),
  ]);
  const a = await openChat({ theme: 'dark' });
  await a.shell.app.plugins.setState('example', true);
  await a.page.getByTestId('toggle-panels').click();
  const wallet = a.page.locator('[data-testid=wallet][data-id="example.wallet"]');
  await wallet.waitFor();
  await a.page.getByTestId('wallet-threshold').fill('20');
  await a.page.getByTestId('wallet-threshold').press('Enter');
  await wallet.getByTestId('wallet-warning').waitFor();
  expect(a.shell.app.sessions.getSetting('ui.walletThreshold')).toBe('20');
  // Refreshed once on sight, and again on demand.
  await expect.poll(() => wallet.getByTestId('wallet-refreshed').textContent()).toMatch(/^refreshed /);
  await wallet.getByTestId('wallet-refresh').click();
  await wallet.getByTestId('wallet-refresh').and(a.page.locator(':not([aria-disabled])')).waitFor();

  const tokens = a.page.locator('[data-testid=status-segment][data-id="core.tokens"]');
  // Before the first reply there is nothing to count: no "in 0 out 0" on the bar.
  expect(await tokens.count()).toBe(0);
  await type(a, 'Stream something.');
  await a.page.locator('[data-testid=message][data-streaming]').filter({ hasText: 'tok3' }).waitFor();
  await expect.poll(() => tokens.textContent()).not.toBe('in 0 out 0');
  await assistantWith(a, 'tok29').waitFor();
  await expect.poll(() => tokens.textContent()).toBe('in 1.5k out 45');
  await a.page.locator('[data-testid=status-segment][data-source=metrics]').filter({ hasText: '/turn' }).waitFor();
  await a.screenshot('panels-wallets-dark');
  await a.page.getByTestId('status-bar').screenshot({ path: join(SCREENSHOTS, 'status-bar-dark.png') });
  await a.page.getByTestId('open-settings').click();
  await a.screenshot('settings-dark');
});
