// The rough edges a new user meets in the window, each pinned where it was seen.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';
import { assistant, user } from './seed.ts';

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

/** The app with the loopback model, a new conversation open. */
async function openChat(): Promise<Amber> {
  dir = mkdtempSync(join(tmpdir(), 'amber-rough-'));
  mkdirSync(join(dir, 'workspace'));
  model = await startModel();
  amber = await startAmber({ core: coreFor(model, join(dir, 'workspace')) });
  await amber.open();
  await amber.page.getByTestId('new-chat').click();
  await amber.page.getByTestId('composer').waitFor();
  return amber;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('panels show one Wallets card and one Allowances card, and an allowance that limits nothing is not listed', async () => {
  amber = await startAmber();
  await amber.open();
  const { page } = amber;
  await page.getByTestId('toggle-panels').click();
  const panels = page.getByTestId('panels');
  // The wallet plugin's and the budget plugin's panels are part of the app's cards, not cards of the same name.
  await panels.locator('[data-testid=wallets-panel] [data-testid=plugin-panel][data-plugin=wallet]').waitFor();
  await panels.locator('[data-testid=allowances-panel] [data-testid=plugin-panel][data-plugin=budget]').waitFor();
  // One Wallets and one Allowances card (the memory plugin's panel follows them, a card of its own).
  await expect.poll(() => panels.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Wallets', 'Allowances', 'Memory']);
  // No card contradicts the plugin that is active: the app's "no wallet" line gives way to the plugin's word.
  await expect.poll(() => panels.textContent()).not.toContain('No wallet: a plugin such as Wallet');
  expect(await panels.getByTestId('wallets-panel').textContent()).toContain('Not set up');
  // The budget plugin without a budget limits nothing: no "0% of 100%", only its own "No budgets are set".
  await panels.getByText('No budgets are set').waitFor();
  expect(await panels.locator('[data-testid=allowance]').count()).toBe(0);
  await amber.screenshot('rough-panels');
});

test('every provider choice on the first-run screen fits on one line, and the arrow keys move the choice', async () => {
  amber = await startAmber({ skipSetup: false });
  await amber.open();
  const { page } = amber;
  const other = page.getByRole('radio', { name: 'Other OpenAI-compatible server' });
  // The choices arrive once main has asked the provider plugins which local servers answer.
  await other.waitFor();
  const heights = await page.getByRole('radio').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(new Set(heights).size).toBe(1);
  expect(await other.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await amber.screenshot('rough-first-run-presets');
  // Tab reaches the group once; an arrow key moves the choice and the focus with it.
  const checked = page.locator('[role=radio][aria-checked=true]');
  await checked.focus();
  const before = await checked.textContent();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => checked.textContent()).not.toBe(before);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-checked'))).toBe('true');
  expect(await page.locator('[role=radio][tabindex="0"]').count()).toBe(1);
});

test('the /help output sits above the status bar without covering the message box', async () => {
  const a = await openChat();
  await a.page.getByTestId('composer').fill('/help');
  await a.page.keyboard.press('Enter');
  const output = a.page.getByTestId('status-output');
  await output.filter({ hasText: '/set — Change a setting' }).waitFor();
  const composer = (await a.page.locator('.composer-box').boundingBox())!;
  expect(overlaps((await output.boundingBox())!, composer)).toBe(false);
  await a.screenshot('rough-help-output');
  await output.getByRole('button', { name: 'Close the command output' }).click();
  await output.waitFor({ state: 'detached' });
});

test('with the panels open the status bar stays one line: each segment is whole or cut short with its whole text as a tooltip, its symbols drawn as icons', async () => {
  const a = await openChat();
  // One reply, so the bar has tokens to count.
  model!.setScript([openAiStream({ text: 'Counted.', usage: { input: 1200, output: 48 } })]);
  await a.page.getByTestId('composer').fill('Count this.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Counted.' }).waitFor();
  await a.shell.app.plugins.setState('example', true);
  await a.page.getByTestId('toggle-panels').click();
  await a.page.getByTestId('panels').waitFor();
  const segments = a.page.getByTestId('status-segment');
  await a.page.locator('[data-testid=status-segment][data-source=example]').waitFor();
  const bar = (await a.page.getByTestId('status-bar').boundingBox())!;
  const boxes = await segments.evaluateAll((els) =>
    els.map((e) => ({
      ...e.getBoundingClientRect().toJSON(),
      clipped: e.scrollWidth > e.clientWidth,
      whole: e.scrollWidth <= e.clientWidth || (e.getAttribute('title') ?? '') !== '',
    })),
  );
  for (const b of boxes) {
    expect(b.whole).toBe(true);
    expect(b.top).toBe(boxes[0]!.top);
    expect(b.x).toBeGreaterThanOrEqual(bar.x);
    expect(b.x + b.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
  }
  // ↑ and ↓ come as the app's icons with words for screen readers, never as characters a font may lack.
  const tokens = a.page.locator('[data-testid=status-segment][data-id="core.tokens"]');
  expect(await tokens.locator('svg').count()).toBe(2);
  expect(await a.page.getByTestId('status-bar').evaluate((e) => /[↑↓⚠⛔]/u.test(e.textContent ?? ''))).toBe(false);
  await a.page.getByTestId('status-bar').screenshot({ path: join(import.meta.dirname, '../../test-results/screenshots/rough-status-bar-panels.png') });
  await a.screenshot('rough-status-panels');
});

test('the tree counts the edit of the first message as a branch point; a reply that only called a tool shows no model or regenerate of its own', async () => {
  let sessionId = '';
  amber = await startAmber({
    seed: ({ app }) => {
      const store = app.sessions;
      const s = store.create({ title: 'Forked twice' });
      sessionId = s.id;
      store.appendMany(s.id, [user('First try.'), assistant('Reply to the first try.')]);
      store.branch(s.id, null);
      const [edited] = store.appendMany(s.id, [user('First try, edited.'), assistant('One reply.')]);
      store.branch(s.id, edited!.id);
      store.appendMany(s.id, [
        {
          type: 'message',
          message: {
            role: 'assistant',
            content: [{ type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.txt' } }],
            stopReason: 'toolUse',
            model: 'demo-model',
          },
        },
        {
          type: 'message',
          message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'alpha' }], isError: false },
        },
        assistant('The file says alpha.'),
      ]);
    },
  });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${sessionId}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'The file says alpha.' }).waitFor();
  // One model name and one regenerate button for the turn, under its final reply.
  const replies = page.locator('[data-testid=message][data-role=assistant]');
  await expect.poll(() => replies.count()).toBe(2);
  expect(await page.locator('.model-name').count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Regenerate reply' }).count()).toBe(1);
  expect(await replies.last().locator('.model-name').count()).toBe(1);
  await amber.screenshot('rough-tool-turn');

  await page.getByTestId('toggle-tree').click();
  await expect.poll(() => page.getByTestId('tree-summary').textContent()).toBe('6 messages · 2 branch points');
  // The sidebar counts the same six (the tool result is part of its reply), and both say what they count.
  const listed = page.locator(`[data-session-id="${sessionId}"] .session-preview`);
  expect(await listed.textContent()).toBe('6 messages');
  expect(await listed.getAttribute('title')).toBe(await page.getByTestId('tree-summary').getAttribute('title'));
  expect(await listed.getAttribute('title')).toMatch(/every branch.*tool results not counted/);
  await amber.screenshot('rough-tree-summary');
  await page.screenshot({ path: docsShot('message-count.png'), animations: 'disabled' });
});

test('a plugin that is off reads Off, a word the README lists', async () => {
  amber = await startAmber();
  await amber.open();
  await amber.page.getByTestId('open-settings').click();
  await amber.page.getByTestId('settings-tab-plugins').click();
  const state = amber.page.locator('[data-testid=plugin-row][data-id=example]').getByTestId('plugin-state');
  await expect.poll(() => state.textContent()).toBe('Off');
  await amber.page.locator('[data-testid=plugin-row][data-id=example]').scrollIntoViewIfNeeded();
  await amber.screenshot('rough-plugin-off');
});

test("a plugin panel's warning sign is drawn as the app's icon with a word for screen readers", async () => {
  const a = await openChat();
  await a.page.getByTestId('composer').fill('/budget set session 10 tokens');
  await a.page.keyboard.press('Enter');
  await a.page.getByTestId('status-message').filter({ hasText: 'session budget is now' }).waitFor();
  // A reply's usage crosses the budget's warning line; the budget panel then shows a ⚠ line.
  model!.setScript([openAiStream({ text: 'Counted.', usage: { input: 9, output: 0 } })]);
  await a.page.getByTestId('composer').fill('Count this.');
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])').filter({ hasText: 'Counted.' }).waitFor();
  await a.page.getByTestId('toggle-panels').click();
  const text = a.page.locator('[data-testid=plugin-panel][data-plugin=budget] .panel-text').filter({ hasText: 'Warning:' });
  await text.waitFor();
  expect(await text.locator('svg').count()).toBe(1);
  expect(await text.textContent()).not.toMatch(/[⚠⛔]/u);
  await a.screenshot('rough-panel-warning');
});
