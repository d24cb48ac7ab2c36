// The command palette as a user meets it: the window's actions with their shortcuts, then each slash command
// once — no argument permutations, no internal source tags.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, onTestFinished, test } from 'vitest';
import { type Amber, startAmber, docsShot } from './harness.ts';
import { coreFor, startModel } from '../fixtures/loopback-model.ts';

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
  await page.screenshot({ path: docsShot('command-palette.png'), animations: 'disabled' });

  // A slash asks for commands only.
  await page.getByTestId('palette-input').fill('/new');
  await expect.poll(() => page.locator('[data-testid=palette-item][data-kind=action]').count()).toBe(0);
  expect(await items.first().locator('.palette-path').textContent()).toBe('/new');
  // Typing narrows both; Enter takes the first, an action, which runs at once.
  await page.getByTestId('palette-input').fill('panels');
  await expect.poll(() => items.first().textContent()).toBe('Show or hide the panelsCtrl+Shift+B');
  await page.keyboard.press('Enter');
  await page.getByTestId('command-palette').waitFor({ state: 'detached' });
  await page.getByTestId('panels').waitFor();
});

test('/help opens over the conversation without moving the message box; a short result is shown whole', async () => {
  // A model is set up, so the message box takes input; no reply is asked for.
  const model = await startModel();
  onTestFinished(() => model.close());
  amber = await startAmber({ core: coreFor(model, join(dir, 'workspace')) });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('new-chat').click();
  const composer = page.getByTestId('composer');
  await composer.waitFor();
  const box = page.locator('.composer-box');
  const before = (await box.boundingBox())!;
  await composer.fill('/help');
  await page.keyboard.press('Enter');
  const output = page.getByTestId('status-output');
  await output.filter({ hasText: '/set — Change a setting' }).waitFor();
  const after = (await box.boundingBox())!;
  expect(after.y).toBe(before.y);
  expect(after.height).toBe(before.height);
  const shown = (await output.boundingBox())!;
  expect(shown.y + shown.height).toBeLessThanOrEqual(after.y);
  await page.screenshot({ path: docsShot('help-output.png'), animations: 'disabled' });
  await output.getByRole('button', { name: 'Close the command output' }).click();
  await output.waitFor({ state: 'detached' });

  await composer.fill('/set plugin off example');
  await page.keyboard.press('Enter');
  const note = page.getByTestId('status-message').filter({ hasText: 'Example is off.' });
  await note.waitFor();
  expect(await note.locator('.status-message-text').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
});
