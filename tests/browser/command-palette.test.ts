// The command palette as a user meets it: the window's actions with their shortcuts, then each slash command
// once — no argument permutations, no internal source tags.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type Amber, startAmber } from './harness.ts';

let amber: Amber | null = null;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-palette-'));
  mkdirSync(join(dir, 'workspace'));
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  rmSync(dir, { recursive: true, force: true });
});

test('the palette lists actions with their shortcuts and each command once; an action runs from it', async () => {
  amber = await startAmber({ core: { workspace: join(dir, 'workspace') } });
  await amber.open();
  const { page } = amber;
  await page.keyboard.press('Control+Shift+P');
  const items = page.getByTestId('palette-item');
  await items.filter({ hasText: '/set policy yolo' }).waitFor();

  const actions = page.locator('[data-testid=palette-item][data-kind=action]');
  expect(await actions.first().textContent()).toBe('New conversationCtrl+N');
  expect(await actions.filter({ hasText: 'Open or close Settings' }).locator('kbd').textContent()).toBe('Ctrl+,');
  const texts = await items.allTextContents();
  expect(new Set(texts).size).toBe(texts.length);
  const commands = await page.locator('[data-testid=palette-item][data-kind=command] .palette-path').allTextContents();
  expect(new Set(commands).size).toBe(commands.length);
  // A feed's items are arguments, completed in the message box, not palette lines; no source tags either.
  expect(commands).toContain('/model');
  expect(commands).toContain('/set plugin on');
  expect(commands.filter((c) => c.startsWith('/set plugin on '))).toEqual([]);
  expect(commands.filter((c) => c.startsWith('/get plugin.'))).toEqual([]);
  expect(await page.getByTestId('command-palette').locator('.chip').count()).toBe(0);
  await page.screenshot({ path: resolve(import.meta.dirname, '../../docs/images/command-palette.png'), animations: 'disabled' });

  // Typing narrows both; Enter takes the first, an action, which runs at once.
  await page.getByTestId('palette-input').fill('panels');
  await expect.poll(() => items.first().textContent()).toBe('Show or hide the panelsCtrl+Shift+B');
  await page.keyboard.press('Enter');
  await page.getByTestId('command-palette').waitFor({ state: 'detached' });
  await page.getByTestId('panels').waitFor();
});
