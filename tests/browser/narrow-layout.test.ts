// The window at widths people actually use: at 900 and 700 px the conversation stays readable with Panels
// or the tree open (they open over it as drawers), nothing scrolls sideways, and the sidebar folds away.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import { coreFor, MODEL, startModel } from '../fixtures/loopback-model.ts';
import { openAiStream } from '../fixtures/provider-server.ts';
import { type Amber, startAmber } from './harness.ts';
import { seedLinear } from './seed.ts';

const DOCS_IMAGES = resolve(import.meta.dirname, '../../docs/images');

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

const sideways = (page: Page) =>
  page.evaluate(() => {
    const el = document.scrollingElement!;
    return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth };
  });
const transcriptWidth = async (page: Page) => (await page.getByTestId('transcript').boundingBox())?.width ?? 0;
const transcriptHeight = async (page: Page) => (await page.getByTestId('transcript').boundingBox())?.height ?? 0;

async function open(width: number): Promise<Page> {
  amber = await startAmber({ viewport: { width, height: 700 }, seed: ({ app }) => void seedLinear(app.sessions, 'Narrow window', 12) });
  await amber.open();
  const { page } = amber;
  if (!(await page.getByTestId('sidebar').isVisible())) await page.getByTestId('toggle-sidebar').click();
  await page.getByTestId('session-row').first().click();
  await page.locator('[data-testid=message]').first().waitFor();
  return page;
}

for (const width of [900, 700]) {
  test(`at ${width} px, Panels and the tree open over the conversation, which stays readable, and nothing scrolls sideways`, async () => {
    const page = await open(width);
    // Under about 1000 px the sidebar folds away by itself (opened to pick the conversation, it folded again).
    await expect.poll(() => page.getByTestId('sidebar').isVisible()).toBe(false);

    await page.getByTestId('toggle-panels').click();
    const panels = page.getByTestId('panels');
    await panels.waitFor();
    // docs/images/narrow-after.png is written only when asked (AMBER_DOCS_SCREENSHOT=1), so a test run leaves the docs alone.
    if (width === 900 && process.env.AMBER_DOCS_SCREENSHOT) {
      await amber!.screenshot('narrow-after');
      copyFileSync(join(resolve(import.meta.dirname, '../../test-results/screenshots'), 'narrow-after.png'), join(DOCS_IMAGES, 'narrow-after.png'));
    }
    const withPanels = await sideways(page);
    expect(withPanels.scrollWidth).toBeLessThanOrEqual(withPanels.clientWidth);
    expect(await transcriptWidth(page)).toBeGreaterThan(400);
    // The column opened beside the chat once took all its height: the conversation is still there to read.
    expect(await transcriptHeight(page)).toBeGreaterThan(300);
    // The drawer takes the focus; Escape closes it and gives the focus back to the button that opened it.
    await expect.poll(() => panels.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => panels.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('toggle-panels');

    await page.getByTestId('toggle-tree').click();
    await page.getByTestId('tree-view').waitFor();
    const withTree = await sideways(page);
    expect(withTree.scrollWidth).toBeLessThanOrEqual(withTree.clientWidth);
    expect(await transcriptWidth(page)).toBeGreaterThan(400);
    // The column opened beside the chat once took all its height: the conversation is still there to read.
    expect(await transcriptHeight(page)).toBeGreaterThan(300);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('tree-view').count()).toBe(0);

    // The header's button opens the sidebar over the chat; picking a conversation folds it again.
    await page.getByTestId('toggle-sidebar').click();
    await page.getByTestId('sidebar').waitFor({ state: 'visible' });
    const withSidebar = await sideways(page);
    expect(withSidebar.scrollWidth).toBeLessThanOrEqual(withSidebar.clientWidth);
    await page.getByTestId('session-row').first().click();
    await expect.poll(() => page.getByTestId('sidebar').isVisible()).toBe(false);
  });
}

test('Ctrl+B and the header button fold the sidebar away and bring it back on a wide window', async () => {
  const page = await open(1280);
  const sidebar = page.getByTestId('sidebar');
  expect(await sidebar.isVisible()).toBe(true);
  // The transcript's text column and the message box line up (the same width, centred alike).
  const columns = await page.evaluate(() => {
    const text = document.querySelector('.msg-assistant')!.getBoundingClientRect();
    const style = getComputedStyle(document.querySelector('.msg-assistant')!);
    const box = document.querySelector('.composer-box')!.getBoundingClientRect();
    return {
      textLeft: text.left + parseFloat(style.paddingLeft),
      textRight: text.right - parseFloat(style.paddingRight),
      boxLeft: box.left,
      boxRight: box.right,
    };
  });
  expect(Math.abs(columns.textLeft - columns.boxLeft)).toBeLessThanOrEqual(8);
  expect(Math.abs(columns.textRight - columns.boxRight)).toBeLessThanOrEqual(8);
  const before = await transcriptWidth(page);
  await page.keyboard.press('Control+b');
  await expect.poll(() => sidebar.isVisible()).toBe(false);
  // The chat takes the room the sidebar left.
  await expect.poll(() => transcriptWidth(page)).toBeGreaterThan(before + 200);
  await page.keyboard.press('Control+b');
  await expect.poll(() => sidebar.isVisible()).toBe(true);
  const toggle = page.getByTestId('toggle-sidebar');
  expect(await toggle.getAttribute('aria-label')).toBe('Hide the sidebar');
  await toggle.click();
  await expect.poll(() => sidebar.isVisible()).toBe(false);
  expect(await toggle.getAttribute('aria-label')).toBe('Show the sidebar');
  // Folded stays folded after a reload.
  await amber!.open();
  await page.locator('[data-testid=session-title]').waitFor();
  expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
});

test('at 420 px the top bar shows the whole title and the message box the whole model name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'amber-narrow-'));
  mkdirSync(join(dir, 'workspace'));
  const model = await startModel([openAiStream({ text: 'Hello.' })]);
  try {
    amber = await startAmber({ viewport: { width: 420, height: 700 }, core: coreFor(model, join(dir, 'workspace')) });
    await amber.open();
    const { page } = amber;
    const name = page.getByTestId('model-picker').locator('.model-picker-name');
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => name.textContent()).toBe(MODEL.modelId);
    await amber.screenshot('narrow-420-composer');
    // The thinking level beside it takes the width of the level shown, not of its longest option, so the name is not cut.
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // Short of room in the top bar, the folder's name gives way before the conversation's title.
    const title = page.getByTestId('session-title');
    await expect.poll(() => title.textContent()).toBe('New chat');
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  } finally {
    await amber?.close();
    amber = null;
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
