// Ctrl+K searches the conversations over whatever the window shows: results as one types (with the words
// around a match in the messages), arrows and Enter to open one, Escape to close. The palette keeps Ctrl+Shift+P.
import { copyFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { seriousViolations } from './axe-audit.ts';
import { closeModelRig, coreFor, openModelRig } from '../fixtures/loopback-model.ts';
import { assistant, user } from './seed.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

function seedMany(shell: HeadlessShell) {
  const store = shell.app.sessions;
  const ids: Record<string, string> = {};
  for (const [title, question, answer] of [
    ['Garden plans', 'When should I plant tomatoes?', 'After the last frost, in a sunny spot.'],
    ['Trip to Lisbon', 'What should I see in Lisbon?', 'The Alfama, the tram 28 and the pastéis de nata in Belém.'],
    ['Tax return', 'Which receipts do I keep?', 'Keep them for the years the office can ask about.'],
    ['Bread baking', 'How long does a sourdough starter take?', 'About a week of daily feeding before it rises reliably.'],
  ] as const) {
    const s = store.create({ title });
    store.appendMany(s.id, [user(question), assistant(answer)]);
    ids[title] = s.id;
  }
  return ids;
}

const focused = (app: Amber) => app.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 800 },
] as const) {
  test(`Ctrl+K searches the conversations as one types; Enter opens the one chosen, Escape closes (${theme}, ${width} px)`, async () => {
    let ids!: Record<string, string>;
    amber = await startAmber({ theme, viewport: { width, height: 720 }, seed: (shell) => void (ids = seedMany(shell)) });
    await amber.open();
    const { page } = amber;

    await page.keyboard.press('Control+k');
    const search = page.getByTestId('conversation-search');
    await search.waitFor();
    // Not the palette: that one keeps its own key.
    expect(await page.getByTestId('command-palette').count()).toBe(0);
    expect(await focused(amber)).toBe('conversation-search-input');
    // Nothing typed: the newest conversations.
    const results = search.getByTestId('conversation-result');
    await expect.poll(() => results.count()).toBe(4);

    // Typing narrows to the conversation whose messages mention it, with the words around the match.
    await page.keyboard.type('pastéis');
    await expect.poll(() => results.count()).toBe(1);
    expect(await results.first().getAttribute('data-session-id')).toBe(ids['Trip to Lisbon']);
    expect(await results.first().getByTestId('conversation-result-match').textContent()).toContain('pastéis de nata');
    expect(await results.first().locator('mark').textContent()).toBe('pastéis');
    expect(await seriousViolations(page, '[data-testid=conversation-search]')).toEqual([]);
    await amber.screenshot(`conversation-search-${theme}-${width}`);
    if (process.env.AMBER_DOCS_SCREENSHOT && theme === 'light')
      copyFileSync(await amber.screenshot('conversation-search'), docsShot('conversation-search.png'));

    // A word in nothing says so.
    await page.getByTestId('conversation-search-input').fill('zeppelin');
    await expect.poll(() => search.getByTestId('conversation-search-empty').textContent()).toBe('No conversation mentions “zeppelin”.');

    // A word in two: the arrows move, Enter opens the one chosen and the search closes.
    await page.getByTestId('conversation-search-input').fill('should');
    await expect.poll(() => results.count()).toBe(2);
    const second = await results.nth(1).getAttribute('data-session-id');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => results.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => search.count()).toBe(0);
    const opened = Object.entries(ids).find(([, id]) => id === second)![0];
    const answers: Record<string, string> = { 'Garden plans': 'After the last frost', 'Trip to Lisbon': 'The Alfama' };
    await page.locator('[data-testid=message]').filter({ hasText: answers[opened]! }).waitFor();
    expect(await page.getByTestId('session-title').textContent()).toBe(opened);

    // Escape closes without opening anything, and the focus goes back where it was.
    await page.getByTestId('toggle-tree').focus();
    await page.keyboard.press('Control+k');
    await search.waitFor();
    await page.keyboard.type('bread');
    await expect.poll(() => results.count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => search.count()).toBe(0);
    expect(await focused(amber)).toBe('toggle-tree');
    expect(await page.getByTestId('session-title').textContent()).toBe(opened);

    // The palette is Ctrl+Shift+P, and /help names both keys.
    await page.keyboard.press('Control+Shift+P');
    await page.getByTestId('command-palette').waitFor();
    expect(await search.count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}

test('/help names the keys for conversation search and the command palette', async () => {
  const rig = await openModelRig('amber-search-help-');
  try {
    amber = await startAmber({ core: coreFor(rig.model, rig.workspace) });
    await amber.open();
    const { page } = amber;
    await page.keyboard.press('Control+n');
    await page.getByTestId('composer').fill('/help');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('status-output').textContent())
      .toContain('Ctrl+K searches your conversations; Ctrl+Shift+P opens the command palette');
  } finally {
    await closeModelRig(rig, amber);
    amber = null;
  }
});
