// axe-core on every main screen, in both themes: no serious or critical WCAG 2.1 A/AA violation anywhere.
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import { SETTINGS_PAGES } from '../../src/renderer/settings/settings-pages.ts';
import type { Page } from 'playwright-core';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';
import { assistant, user } from './seed.ts';

// The app's CSP forbids inline scripts, so axe goes in through the debugger protocol instead of a <script> tag.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; detail: string }[];
}

/** Runs axe on the page as it is and returns the serious and critical violations as readable lines. */
async function audit(page: Page, screen: string): Promise<string[]> {
  // Colours are measured once the screen has settled: a dialog fading in is not yet its final colour.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => {
        // For contrast, the colours axe measured: enough to find the variable at fault.
        const d = (n as unknown as { any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }[] }).any[0]?.data;
        return { target: n.target, detail: d?.fgColor ? ` [${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}]` : '' };
      }),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) ${n.target.join(' ')}${n.detail}`));
}

/** A conversation with a tool call and its result, and a first message edited once (a fork at the root). */
function seedConversation(shell: HeadlessShell): string {
  const store = shell.app.sessions;
  const s = store.create({ title: 'Accessible chat' });
  store.appendMany(s.id, [user('Write a note.')]);
  store.branch(s.id, null);
  store.appendMany(s.id, [
    user('Write a note to notes.txt, please.'),
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'call_1', name: 'write_file', arguments: { path: 'notes.txt', content: 'hello' } }],
        stopReason: 'toolUse',
        model: 'demo-model',
        usage: { input: 1200, output: 30, cacheRead: 0, cacheWrite: 0 },
      },
    },
    {
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'write_file',
        content: [{ type: 'text', text: 'Wrote notes.txt.' }],
        isError: false,
        status: 'ok',
      },
    },
    assistant('Done: **notes.txt** now says hello.', { usage: { input: 1300, output: 12, cacheRead: 0, cacheWrite: 0 } }),
  ]);
  return s.id;
}

async function auditEveryScreen(theme: 'light' | 'dark'): Promise<string[]> {
  let sessionId = '';
  amber = await startAmber({ skipSetup: false, theme, seed: (shell) => void (sessionId = seedConversation(shell)) });
  await amber.open();
  const { page } = amber;
  const found: string[] = [];
  const check = async (screen: string) => {
    found.push(...(await audit(page, `${screen} (${theme})`)));
    await amber!.screenshot(`a11y-${screen}-${theme}`);
  };

  await page.getByTestId('first-run').waitFor();
  await check('first-run');
  await page.getByRole('button', { name: 'Set up later' }).click();
  await page.getByTestId('sidebar').waitFor();
  await check('no-conversation');

  await page.locator(`[data-session-id="${sessionId}"]`).click();
  await page.getByTestId('tool-card').waitFor();
  await page.locator('[data-testid=message]').filter({ hasText: 'now says hello' }).waitFor();
  await page.getByTestId('status-bar').waitFor();
  await check('conversation');

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-providers').waitFor();
  await check('settings-models');
  await page.getByTestId('settings-tab-plugins').click();
  await page.locator('[data-testid=plugin-row]').first().waitFor();
  await check('settings');
  await page.getByTestId('settings-tab-policy').click();
  await page.getByTestId('settings-policy').waitFor();
  await check('settings-policy');
  await page.getByTestId('settings-tab-advanced').click();
  await page.getByTestId('plugin-process-row').first().waitFor();
  await check('settings-advanced');
  await page.getByTestId('close-settings').click();

  await amber.shell.app.plugins.setState('example', true);
  await page.getByTestId('toggle-panels').click();
  await page.locator('[data-testid=wallet]').first().waitFor();
  await page.locator('[data-testid=plugin-panel]').first().waitFor();
  await check('panels');

  await page.getByTestId('toggle-tree').click();
  await page.getByTestId('tree-view').getByTestId('tree-node').first().waitFor();
  await check('tree');

  await page.getByTestId('open-palette').click();
  await page.getByTestId('palette-item').first().waitFor();
  await check('palette');
  await page.keyboard.press('Escape');
  return found;
}

test('no screen has a serious or critical accessibility violation in the light theme', async () => {
  expect(await auditEveryScreen('light')).toEqual([]);
});

test('no screen has a serious or critical accessibility violation in the dark theme', async () => {
  expect(await auditEveryScreen('dark')).toEqual([]);
});

interface Stop {
  what: string;
  ring: boolean;
  visible: boolean;
}

/**
 * Presses Tab until the focus comes back round (or `limit` stops), noting for each control it reaches
 * whether a focus ring is drawn (on it, or on the box that draws it) and whether it can be seen at all.
 */
async function tabAround(page: Page, limit = 150): Promise<Stop[]> {
  const stops: Stop[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    // A control that fades in on focus is judged once it has.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished),
      ),
    );
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      if (!el.dataset.tabStop) el.dataset.tabStop = String(Math.random());
      // The ring is on the control or on the box up to three levels out that draws it.
      let ring = false;
      for (let e: Element | null = el, n = 0; e && n < 4; e = e.parentElement, n++) {
        const cs = getComputedStyle(e);
        ring ||= cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) > 0;
      }
      let visible = el.getBoundingClientRect().width > 0;
      for (let e: Element | null = el; e; e = e.parentElement) if (Number.parseFloat(getComputedStyle(e).opacity) === 0) visible = false;
      const name = el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 30) ?? '';
      return { id: el.dataset.tabStop, what: `${el.tagName.toLowerCase()}.${el.className} “${name}”`, ring, visible };
    });
    if (!stop) continue;
    if (seen.has(stop.id)) break;
    seen.add(stop.id);
    stops.push({ what: stop.what, ring: stop.ring, visible: stop.visible });
  }
  return stops;
}

const withoutRing = (stops: Stop[]) => stops.filter((s) => !s.ring || !s.visible).map((s) => `${s.what}${s.visible ? '' : ' (invisible)'}`);

test('every control Tab reaches shows a focus ring: the conversation with panels, the tree, Settings and the palette', async () => {
  let sessionId = '';
  amber = await startAmber({ seed: (shell) => void (sessionId = seedConversation(shell)) });
  await amber.open();
  const { page } = amber;
  await amber.shell.app.plugins.setState('example', true);
  await page.locator(`[data-session-id="${sessionId}"]`).click();
  await page.getByTestId('tool-card').waitFor();
  await page.getByTestId('toggle-panels').click();
  await page.locator('[data-testid=wallet]').first().waitFor();
  const panels = await tabAround(page);
  expect(panels.length).toBeGreaterThan(15);
  await page.getByTestId('toggle-tree').click();
  await page.getByTestId('tree-view').getByTestId('tree-node').first().waitFor();
  const tree = await tabAround(page);
  await page.keyboard.press('Control+,');
  await page.getByTestId('settings-tab-plugins').click();
  await page.locator('[data-testid=plugin-row]').first().waitFor();
  const settings = await tabAround(page);
  await amber.screenshot('a11y-focus-settings');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('palette-item').first().waitFor();
  const palette = await tabAround(page, 5);
  expect([...withoutRing(panels), ...withoutRing(tree), ...withoutRing(settings), ...withoutRing(palette)]).toEqual([]);
});

test('a whole session from the keyboard alone: new chat, send, jump in the tree, switch a plugin on, run its panel button, run a command', async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-keys-'));
  mkdirSync(join(dir, 'workspace'));
  model = await startModel([openAiStream({ text: 'Hello from the model.' })]);
  amber = await startAmber({ core: coreFor(model, join(dir, 'workspace')) });
  await amber.open();
  const { page } = amber;
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.getAttribute('aria-label') ?? null);

  await page.keyboard.press('Control+n');
  await expect.poll(focused).toBe('composer');
  await page.keyboard.type('Hello?');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Hello from the model.' }).waitFor();

  // The tree: Tab to the first message's row and jump there with Enter.
  await page.keyboard.press('Control+Shift+T');
  const first = page.getByTestId('tree-view').getByRole('button', { name: 'Hello?' });
  await first.waitFor();
  for (let i = 0; i < 40 && !(await first.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('tree-view').locator('[data-testid=tree-node].is-leaf').textContent()).toContain('Hello?');

  // Settings: it opens with the focus on its page list (Models); Down moves page by page to Plugins. Tab to the
  // Example plugin's switch and turn it on with Space; Escape closes Settings.
  await page.keyboard.press('Control+,');
  await expect.poll(focused).toBe('settings-tab-models');
  const toPlugins = SETTINGS_PAGES.findIndex((p) => p.id === 'plugins');
  for (let i = 0; i < toPlugins; i++) await page.keyboard.press('ArrowDown');
  await expect.poll(focused).toBe('settings-tab-plugins');
  const toggle = page.locator('[data-testid=plugin-row][data-id=example]').getByTestId('plugin-toggle');
  await toggle.waitFor();
  for (let i = 0; i < 80 && !(await toggle.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await page.locator('[data-testid=plugin-row][data-id=example][data-state=active]').waitFor();
  // The switch keeps the focus through the switching: the next Tab goes on from there.
  expect(await toggle.evaluate((e) => e === document.activeElement)).toBe(true);
  await amber.screenshot('a11y-keyboard-settings');
  await page.keyboard.press('Escape');
  await page.getByTestId('settings').waitFor({ state: 'detached' });

  // The panels: a plugin's button run from the keyboard keeps the focus while it runs and after.
  await page.keyboard.press('Control+Shift+B');
  const reset = page.locator('[data-testid=plugin-panel][data-plugin=example]').getByTestId('panel-action').filter({ hasText: 'Reset counters' });
  await reset.waitFor();
  for (let i = 0; i < 80 && !(await reset.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect.poll(() => reset.getAttribute('aria-disabled')).toBeNull();
  expect(await reset.evaluate((e) => e === document.activeElement)).toBe(true);

  // The palette: type a command and take it with Enter; it takes an argument, so it waits in the message box.
  await page.keyboard.press('Control+Shift+P');
  await expect.poll(focused).toBe('palette-input');
  // With a slash, the palette lists commands only (without one, the New conversation action would come first).
  await page.keyboard.type('/new');
  // The list comes from main: take the command once it is there.
  await page.getByTestId('palette-item').filter({ hasText: '/new' }).first().waitFor();
  await page.keyboard.press('Enter');
  await expect.poll(focused).toBe('composer');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
});

test('the approval dialog, command completions and command output have no serious or critical accessibility violation in either theme', async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-approve-'));
  mkdirSync(join(dir, 'workspace'));
  const outside = join(dir, 'elsewhere', 'a.txt');
  model = await startModel([
    openAiStream({ text: 'Writing.', toolCalls: [{ id: 'call_1', name: 'write_file', arguments: { path: outside, content: 'x' } }] }),
    openAiStream({ text: 'Done.' }),
  ]);
  amber = await startAmber({ core: coreFor(model, join(dir, 'workspace')) });
  await amber.open();
  const { page } = amber;
  await page.keyboard.press('Control+n');
  await page.getByTestId('composer').fill('Write it.');
  await page.keyboard.press('Enter');
  await page.getByTestId('approval-dialog').waitFor();
  const found: string[] = [];
  const both = async (screen: string) => {
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.keyboard.press('Control+Shift+L');
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      found.push(...(await audit(page, `${screen} (${theme})`)));
      await amber!.screenshot(`a11y-${screen}-${theme}`);
    }
  };
  await both('approval');
  await page.getByTestId('approval-dialog').getByRole('button', { name: 'Deny' }).click();
  await page.locator('[data-testid=message][data-role=assistant]').filter({ hasText: 'Done.' }).waitFor();

  await page.getByTestId('composer').fill('/');
  await page.getByTestId('command-completion').first().waitFor();
  await both('completions');
  await page.getByTestId('composer').fill('/help');
  await page.keyboard.press('Enter');
  await page.getByTestId('status-output').waitFor();
  await both('command-output');
  expect(found).toEqual([]);
});

test('switching between versions from the keyboard keeps the focus on the switcher', async () => {
  let sessionId = '';
  amber = await startAmber({ seed: (shell) => void (sessionId = seedConversation(shell)) });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${sessionId}"]`).click();
  const switcher = page.getByTestId('sibling-switcher');
  await expect.poll(() => switcher.textContent()).toBe('2/2');
  await switcher.getByRole('button', { name: 'Previous version' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message]').filter({ hasText: 'Write a note.' }).waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Previous version');
  // At the first version the button stays put (and says it does nothing); Tab and Enter go on from there.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-disabled'))).toBe('true');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=message]').filter({ hasText: 'now says hello' }).waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Next version');
});

test('deleting a conversation from the keyboard hands the focus to the next one, then to the search field', async () => {
  amber = await startAmber({
    seed: ({ app }) => {
      app.sessions.create({ title: 'Older' });
      app.sessions.create({ title: 'Newer' });
    },
  });
  await amber.open();
  const { page } = amber;
  const rows = page.getByTestId('session-row');
  await expect.poll(() => rows.count()).toBe(2);
  const focusedTitle = () =>
    page.evaluate(() =>
      document.activeElement?.closest('[data-testid=session-row]') ? document.activeElement.textContent : document.activeElement?.getAttribute('data-testid'),
    );
  await rows.filter({ hasText: 'Newer' }).getByRole('button', { name: 'Newer', exact: true }).focus();
  await page.keyboard.press('Delete');
  await expect.poll(() => rows.count()).toBe(1);
  await expect.poll(focusedTitle).toBe('Older');
  await page.keyboard.press('Delete');
  await expect.poll(() => rows.count()).toBe(0);
  await expect.poll(focusedTitle).toBe('search');
});
