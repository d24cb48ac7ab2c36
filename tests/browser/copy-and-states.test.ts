// Copy everywhere and honest states, as a user meets them: copy buttons on code, messages, tool output and
// the prompt (the clipboard read back), the status bar on one line at any width, an unknown wallet balance
// said as unknown, a readable tool card header, and the hidden "is the task done?" turn said in words —
// against a loopback model, the real bash tool and a loopback account server that fails.
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { jsonFixture, openAiStream, type ProviderServer } from '../fixtures/provider-server.ts';
import { type AccountServer, openrouterError, startAccountServer } from '../plugins-bundled/account-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { closeModelRig, coreFor, openModelRig, startModel } from '../fixtures/loopback-model.ts';

const DOCS_IMAGES = resolve(import.meta.dirname, '../../docs/images');

let amber: Amber | null = null;
let model: ProviderServer;
let accounts: AccountServer;
let dir: string;
let workspace: string;

beforeEach(async () => {
  ({ dir, workspace, model } = await openModelRig('amber-copy-'));
  workspace = realpathSync(workspace);
  accounts = await startAccountServer();
});

afterEach(async () => {
  await closeModelRig({ dir, model }, amber);
  amber = null;
  await accounts.close();
});

const CODE = 'const answer = 42;\nconsole.log(`the answer is ${answer}`);';
const REPLY = `Here is the snippet:\n\n\`\`\`ts\n${CODE}\n\`\`\`\n\nRun it with **node**.`;
const COMMAND = "printf 'one\\ntwo\\n' > notes.md && cat notes.md";

/**
 * A window on a conversation whose model ran a bash command, then answered with a code block, then said
 * "done" when asked whether the task is finished; the wallet's account server fails every read.
 */
async function openConversation(options: { viewport?: { width: number; height: number }; command?: string; confirmPaceMs?: number } = {}): Promise<Amber> {
  accounts.answer.openrouter = openrouterError(500, 'Internal server error');
  model.setScript([
    openAiStream({ text: 'I will write the notes first.', toolCalls: [{ id: 'call_w', name: 'bash', arguments: { command: options.command ?? COMMAND } }] }),
    openAiStream({ text: REPLY, usage: { input: 1200, output: 48 } }),
    openAiStream({ text: 'done' }, options.confirmPaceMs ? { pace: { intervalMs: options.confirmPaceMs } } : {}),
  ]);
  // The bundled plugins' own tools (the real bash among them), not the fixture's write_file.
  const { tools: _writeFileOnly, ...core } = coreFor(model, workspace);
  const a = (amber = await startAmber({
    viewport: options.viewport ?? { width: 1360, height: 860 },
    core,
    seed: async (shell) => {
      await shell.app.pluginConfig.set('wallet', { 'openrouter.apiKey': 'sk-or-v1-fails', 'openrouter.baseUrl': accounts.openrouterBaseUrl });
    },
  }));
  await until(() => a.shell.app.plugins.registries.tools.get('bash') !== undefined);
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(a.shell.url).origin });
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Write notes, then show me a snippet.');
  await a.page.keyboard.press('Enter');
  return a;
}

async function until(check: () => boolean): Promise<void> {
  await expect.poll(check, { timeout: 20_000 }).toBe(true);
}

const finished = (page: Page) => page.locator('[data-testid=message][data-role=assistant]:not([data-streaming])');
const settled = async (a: Amber) => {
  await finished(a.page).filter({ hasText: 'Run it with' }).waitFor();
  await a.page.getByTestId('send').waitFor();
};
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('copy a code block, a whole reply, a question, the tool output and the prompt: the clipboard holds exactly that', async () => {
  const a = await openConversation();
  await settled(a);
  const { page } = a;
  const reply = finished(page).filter({ hasText: 'Run it with' });

  // The code block's button: hidden until hover or keyboard focus, top right; it copies the code alone.
  const copyCode = reply.getByTestId('copy-code');
  expect(await copyCode.evaluate((e) => getComputedStyle(e).opacity)).toBe('0');
  await copyCode.focus();
  await expect.poll(() => copyCode.evaluate((e) => getComputedStyle(e).opacity)).toBe('1');
  const block = (await reply.locator('.code-block').boundingBox())!;
  const button = (await copyCode.boundingBox())!;
  expect(button.y - block.y).toBeLessThan(12);
  expect(block.x + block.width - (button.x + button.width)).toBeLessThan(12);
  await page.keyboard.press('Enter');
  await expect.poll(() => clipboard(page)).toBe(CODE);
  // "Copied", said to a screen reader through a live region too.
  await expect.poll(() => copyCode.locator('[aria-live=polite]').textContent()).toBe('Copied');

  // Hovered, a reply says when it came, its tokens and their speed.
  await reply.hover();
  await expect.poll(() => reply.getByTestId('message-info').evaluate((e) => getComputedStyle(e).opacity)).toBe('1');
  expect(await reply.getByTestId('message-info').textContent()).toMatch(/^\d{1,2}:\d{2}( [AP]M)? · 48 tokens( · [\d,]+ tokens\/s)?$/);
  // A whole reply: its markdown source.
  await reply.getByTestId('copy-message').click();
  await expect.poll(() => clipboard(page)).toBe(REPLY);
  // The user's own message.
  const question = page.locator('[data-testid=message][data-role=user]');
  await question.hover();
  await question.getByTestId('copy-message').click();
  await expect.poll(() => clipboard(page)).toBe('Write notes, then show me a snippet.');

  // The tool's output, whole.
  const card = page.locator('[data-testid=tool-card][data-tool=bash]');
  await card.locator('.tool-output').hover();
  await card.getByTestId('copy-tool-output').click();
  await expect.poll(() => clipboard(page)).toMatch(/^one\ntwo/);
  expect(await clipboard(page)).toBe(await card.locator('.tool-output pre').textContent());

  // The prompt viewer: the part on show (the system message first).
  await page.getByTestId('view-prompt').click();
  const viewer = page.getByTestId('prompt-viewer');
  await viewer.getByTestId('prompt-system').waitFor();
  await viewer.getByTestId('copy-prompt').click();
  await expect.poll(() => clipboard(page)).toBe(await viewer.getByTestId('prompt-system').textContent());
  expect(await viewer.getByTestId('prompt-tab-system').textContent()).toMatch(/~[\d,]+ tokens/);
  await viewer.getByTestId('prompt-tab-tools').click();
  await viewer.getByTestId('prompt-tools').waitFor();
  await a.screenshot('copy-prompt-viewer-tools');
  // The messages of the request: the question, the reply that called the tool, and its result.
  await viewer.getByTestId('prompt-tab-messages').click();
  const messages = viewer.getByTestId('prompt-messages');
  await messages.waitFor();
  await expect.poll(() => messages.textContent()).toContain('Write notes, then show me a snippet.');
  expect(await messages.textContent()).toContain('[tool call] bash');
  expect(await viewer.getByTestId('prompt-tab-messages').textContent()).toMatch(/^Messages \(\d+\) ~[\d,]+ tokens$/);
  await viewer.getByTestId('copy-prompt').click();
  await expect.poll(() => clipboard(page)).toContain('[user]\nWrite notes, then show me a snippet.');
  await a.screenshot('copy-prompt-viewer-messages');
});

test('the tool card says what ran: the command line, the exit code as a badge, the JSON only when opened', async () => {
  const a = await openConversation();
  await settled(a);
  const card = a.page.locator('[data-testid=tool-card][data-tool=bash]');
  expect(await card.getByTestId('tool-summary').textContent()).toBe(COMMAND);
  expect(await card.getByTestId('tool-exit').textContent()).toBe('exit 0');
  expect(await card.getByTestId('tool-exit').getAttribute('class')).toContain('chip-ok');
  expect(await card.locator('.tool-args').count()).toBe(0);
  expect(await card.locator('.tool-head').textContent()).not.toContain('{');
  await card.locator('.tool-head').click();
  expect(JSON.parse((await card.locator('.tool-args').textContent())!)).toEqual({ command: COMMAND });
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('one\ntwo\n');
});

test('while the tool runs the reply shows no finished footer and the bar no "0 tools"; the hidden confirm turn is said in words', async () => {
  const a = await openConversation({ command: 'sleep 2 && echo slept', confirmPaceMs: 400 });
  const { page } = a;
  const card = page.locator('[data-testid=tool-card][data-tool=bash][data-status=running]');
  await card.waitFor();
  await card.getByTestId('tool-elapsed').waitFor();
  const calling = finished(page).filter({ has: card });
  expect(await calling.locator('.model-name').count()).toBe(0);
  expect(await page.getByTestId('status-bar').textContent()).not.toMatch(/\b0 tools\b/);
  await a.screenshot('copy-tool-running');
  // After the answer, the run asks the model whether it is done: said, not an unexplained Stop.
  await page.getByTestId('checking-done').filter({ hasText: 'Checking whether the task is done…' }).waitFor();
  await page.getByTestId('checking-done').waitFor({ state: 'detached' });
  await page.getByTestId('send').waitFor();
  await finished(page).filter({ hasText: 'Run it with' }).locator('.model-name').waitFor();
  expect(await calling.locator('.model-name').count()).toBe(0);
});

test('an unknown wallet balance says unknown and why, never $0.00', async () => {
  const a = await openConversation();
  await settled(a);
  const { page } = a;
  await page.getByTestId('toggle-panels').click();
  const wallet = page.locator('[data-testid=wallet][data-id=openrouter]');
  await wallet.waitFor();
  await accounts.requests('/api/v1/credits', 1);
  await wallet.getByTestId('wallet-unknown').waitFor();
  expect(await wallet.getByTestId('wallet-unknown').textContent()).toBe('—');
  await expect.poll(() => wallet.textContent()).toContain('balance unknown');
  await expect.poll(() => wallet.locator('.side-error').textContent()).toContain('HTTP 500');
  expect(await page.getByTestId('panels').textContent()).not.toContain('$0.00');
  const walletSegment = page.locator('[data-testid=status-segment][data-source=wallet]');
  await expect.poll(() => walletSegment.textContent()).toContain('balance unknown');
  expect(await walletSegment.textContent()).not.toContain('$0.00');
  await wallet.screenshot({ path: join(resolve(import.meta.dirname, '../../test-results/screenshots'), 'copy-wallet-unknown.png') });
  // At 900 px the panels open as a drawer: the wallet's words wrap inside it, nothing scrolls sideways.
  await page.setViewportSize({ width: 900, height: 700 });
  await wallet.locator('.side-error').waitFor();
  const panels = page.getByTestId('wallets-panel');
  expect(await panels.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  const box = (await panels.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(900);
  await a.screenshot('copy-wallet-unknown-900');
});

/**
 * The bar is one line: as tall as one line of its text, every segment on the same line, nothing outside it. Polled:
 * after a resize or a drawer opening the bar lays its segments out again on the next frames, and a loaded machine
 * can take a moment to draw them; what is asserted is the bar once it has settled.
 */
async function expectOneLine(page: Page): Promise<void> {
  const bar = page.getByTestId('status-bar');
  const faults = () =>
    bar.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const out: string[] = [];
      if (box.height > 30) out.push(`bar ${box.height}px tall`);
      for (const [i, s] of [...el.querySelectorAll('.status-segments > *')].map((e) => e.getBoundingClientRect()).entries()) {
        if (s.top < box.top) out.push(`segment ${i} above the bar`);
        if (s.bottom > box.top + box.height + 1) out.push(`segment ${i} below the bar`);
        if (s.left < box.left - 0.5) out.push(`segment ${i} left of the bar (${s.left} < ${box.left})`);
        if (s.right > box.right + 0.5) out.push(`segment ${i} right of the bar (${s.right} > ${box.right})`);
      }
      return out;
    });
  await expect.poll(faults, { timeout: 5_000 }).toEqual([]);
}

test('the status bar stays one line at 1360 and 900 px with Tree and Panels open; what does not fit is behind "…"', async () => {
  const a = await openConversation();
  await settled(a);
  const { page } = a;
  await expectOneLine(page);
  await page.getByTestId('toggle-panels').click();
  await page.getByTestId('toggle-tree').click();
  await expectOneLine(page);
  // A command's result floats above the bar; the bar stays one line.
  await page.getByTestId('composer').fill('/set policy write');
  await page.keyboard.press('Enter');
  await page.getByTestId('status-message').waitFor();
  await expectOneLine(page);
  await a.screenshot('copy-status-1360-tree-panels');
  await page.setViewportSize({ width: 900, height: 700 });
  await expectOneLine(page);
  // The bar's off-screen measuring row never widens the page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await a.screenshot('copy-status-900-tree-panels');
  // Narrower still, the drawers closed: the lowest priorities go behind "…", listed whole in its popover.
  for (let i = 0; i < 3 && (await page.locator('.side-drawer').count()) > 0; i++) await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.side-drawer').count()).toBe(0);
  await page.setViewportSize({ width: 400, height: 700 });
  await expectOneLine(page);
  const more = page.getByTestId('status-more');
  await more.waitFor();
  await more.click();
  await page.getByTestId('status-overflow').waitFor();
  expect(await page.getByTestId('status-overflow-item').count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('status-overflow').textContent()).toContain('1 tool');
  await a.screenshot('copy-status-400-overflow');
  await page.keyboard.press('Escape');
  await page.getByTestId('status-overflow').waitFor({ state: 'detached' });
  expect(await more.evaluate((e) => e === document.activeElement)).toBe(true);
  // A cut segment keeps its whole text in its tooltip.
  for (const title of await page.getByTestId('status-segment').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))) {
    expect(title).not.toBe('');
  }
  await expectOneLine(page);
});

test('the main screen at 1360 px with Panels open', async () => {
  const a = await openConversation();
  await settled(a);
  await a.page.getByTestId('toggle-panels').click();
  await a.page.locator('[data-testid=wallet][data-id=openrouter]').waitFor();
  await accounts.requests('/api/v1/credits', 1);
  await a.page.locator('[data-testid=wallet] .side-error').waitFor();
  await a.page.mouse.move(0, 0);
  const file = await a.screenshot('main-screen-1360');
  if (process.env.AMBER_DOCS_SCREENSHOT) {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    copyFileSync(file, join(DOCS_IMAGES, `main-screen-${process.env.AMBER_DOCS_SCREENSHOT}.png`));
  }
});

test('a server that does not answer is said in words, the technical text under Details', async () => {
  const { tools: _writeFileOnly, ...core } = coreFor(model, workspace);
  const port = new URL(model.url).port;
  await model.close();
  const a = (amber = await startAmber({ core }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Anyone there?');
  await a.page.keyboard.press('Enter');
  const error = a.page.locator('[data-testid=message][data-role=assistant] .msg-error');
  await error.waitFor();
  expect(await error.getByTestId('error-summary').textContent()).toBe(`Amber could not reach the server at 127.0.0.1:${port} — is it running?`);
  expect(await error.getByTestId('error-details').isVisible()).toBe(false);
  await error.getByText('Details').click();
  expect(await error.getByTestId('error-details').textContent()).toMatch(/^Could not reach .* at http:\/\/127\.0\.0\.1:\d+/);
  await a.screenshot('copy-error-in-words');
  model = await startModel();
});

test('a busy server is retried, and the wait is said while it lasts in one toast that the next retry replaces', async () => {
  const busy = jsonFixture('openai/server-error.json', 503, { 'retry-after': '1' });
  model.setScript([busy, busy, openAiStream({ text: 'Back, sorry for the wait.' })]);
  const { tools: _writeFileOnly, ...core } = coreFor(model, workspace);
  const a = (amber = await startAmber({ core }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Are you there?');
  await a.page.keyboard.press('Enter');
  const told = a.page.getByTestId('toast').filter({ hasText: 'Worth knowing' });
  await told.filter({ hasText: 'answered HTTP 503; trying again in 1 s (retry 1 of 3).' }).waitFor();
  await told.filter({ hasText: '(retry 2 of 3).' }).waitFor();
  // The second retry's word took the first one's place.
  expect(await told.count()).toBe(1);
  await finished(a.page).filter({ hasText: 'Back, sorry for the wait.' }).waitFor();
  expect(model.requests).toHaveLength(3);
});

test('"Jump to latest" shows while scrolled up during a stream and takes the view back to the newest words', async () => {
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i}\n\n`);
  model.setScript([openAiStream({ text: lines }, { pace: { framesPerSecond: 12 } })]);
  const { tools: _writeFileOnly, ...core } = coreFor(model, workspace);
  const a = (amber = await startAmber({ core, viewport: { width: 1100, height: 700 } }));
  await a.open();
  await a.page.getByTestId('new-chat').click();
  await a.page.getByTestId('composer').fill('Stream a long reply.');
  await a.page.keyboard.press('Enter');
  const streaming = a.page.locator('[data-testid=message][data-streaming]');
  await streaming.filter({ hasText: 'line 25' }).waitFor();
  const transcript = a.page.getByTestId('transcript');
  expect(await a.page.getByTestId('jump-latest').count()).toBe(0);
  // Scrolled up and told at once, so no delta arriving between the two pins the view back to the end.
  await transcript.evaluate((el) => {
    el.scrollTop = 0;
    el.dispatchEvent(new Event('scroll'));
  });
  const jump = a.page.getByTestId('jump-latest');
  await jump.waitFor();
  await a.screenshot('copy-jump-to-latest');
  await jump.click();
  await jump.waitFor({ state: 'detached' });
  await expect.poll(() => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(80);
});
