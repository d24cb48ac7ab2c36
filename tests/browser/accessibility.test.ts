// axe-core on every main screen, in both themes: no serious or critical WCAG 2.1 A/AA violation anywhere.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import type { Page } from 'playwright-core';
import { type Amber, startAmber } from './harness.ts';
import { assistant, user } from './seed.ts';

// The app's CSP forbids inline scripts, so axe goes in through the debugger protocol instead of a <script> tag.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
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
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished)));
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => {
        // For contrast, the colours axe measured: enough to find the variable at fault.
        const d = (n as unknown as { any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }[] }).any[0]?.data;
        return { target: n.target, detail: d?.fgColor ? ` [${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}]` : '' };
      }) }));
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
    { type: 'message', message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'write_file', content: [{ type: 'text', text: 'Wrote notes.txt.' }], isError: false, status: 'ok' } },
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

  await page.locator(`[data-session-id="${sessionId}"]`).click();
  await page.getByTestId('tool-card').waitFor();
  await page.locator('[data-testid=message]').filter({ hasText: 'now says hello' }).waitFor();
  await page.getByTestId('status-bar').waitFor();
  await check('conversation');

  await page.getByTestId('open-settings').click();
  await page.locator('[data-testid=plugin-row]').first().waitFor();
  await check('settings');
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
  return found;
}

test('no screen has a serious or critical accessibility violation in the light theme', async () => {
  expect(await auditEveryScreen('light')).toEqual([]);
});

test('no screen has a serious or critical accessibility violation in the dark theme', async () => {
  expect(await auditEveryScreen('dark')).toEqual([]);
});
