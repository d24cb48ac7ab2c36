// The tree view of a long conversation reads a page at a time: the newest part of the active branch first,
// earlier pages on request, and a branch that leaves it where it is opened.
import { copyFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { type Amber, docsShot, startAmber } from './harness.ts';
import { seedLinear, user } from './seed.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('a 1,200-message tree opens on its newest page, reads earlier pages on request and opens a far branch in place', async () => {
  let ids!: { sessionId: string; leaf: string; side: string; near: string };
  amber = await startAmber({
    seed: (shell) => {
      const store = shell.app.sessions;
      const { sessionId, entries } = seedLinear(store, 'Long and forked', 1200);
      const leaf = entries.at(-1)!.id;
      // An edit far up (a branch of its own there) and one near the leaf.
      store.branch(sessionId, entries[100]!.id);
      const [side] = store.appendMany(sessionId, [user('A far side question.'), user('And a far follow-up.')]);
      store.branch(sessionId, entries[1190]!.id);
      const [near] = store.appendMany(sessionId, [user('A near side question.')]);
      store.branch(sessionId, leaf);
      ids = { sessionId, leaf, side: side!.id, near: near!.id };
    },
  });
  await amber.open();
  const { page } = amber;
  await page.locator(`[data-session-id="${ids.sessionId}"]`).click();
  await page.locator('[data-testid=message]').filter({ hasText: 'That is all for message 1200.' }).waitFor();

  const started = Date.now();
  await page.keyboard.press('Control+Shift+T');
  const tree = page.getByTestId('tree-view');
  await tree.locator('[data-testid=tree-node].is-leaf').waitFor();
  const firstScreenMs = Date.now() - started;
  expect(await tree.locator('[data-testid=tree-node].is-leaf').getAttribute('data-entry-id')).toBe(ids.leaf);
  // Only the newest page was read: the summary says so, and the near branch (small, so opened by itself) is there.
  await expect.poll(() => tree.getByTestId('tree-summary').textContent()).toBe('201 messages so far · 1 branch point');
  await expect.poll(() => tree.locator(`[data-testid=tree-node][data-entry-id="${ids.near}"]`).count()).toBe(1);
  await amber.screenshot('tree-paged-first-screen');

  // Earlier pages, on request, until the root.
  const earlier = tree.getByTestId('tree-earlier');
  for (let i = 0; i < 10 && (await earlier.count()) > 0; i++) {
    await earlier.click();
    // A page of 200 rows can take more than the poll's default second on a loaded machine; the button may go at any time.
    await expect
      .poll(async () => (await earlier.count()) === 0 || (await earlier.isEnabled({ timeout: 100 }).catch(() => false)), { timeout: 10_000 })
      .toBe(true);
  }
  expect(await earlier.count()).toBe(0);
  // Far from the first page, the branch at message 101 waits to be opened: find its row and open it.
  const scroller = tree.locator('.tree-scroll');
  const stub = tree.locator(`[data-testid=tree-stub][data-entry-id="${ids.side}"]`);
  for (let top = 0; top < 60_000 && (await stub.count()) === 0; top += 600) await scroller.evaluate((el, y) => el.scrollTo(0, y), top);
  await expect.poll(() => tree.getByTestId('tree-summary').textContent()).toBe('1201 messages so far · 2 branch points');
  await stub.getByRole('button', { name: 'Open the branch starting “A far side question.”' }).click();
  await tree.locator(`[data-testid=tree-node][data-entry-id="${ids.side}"]`).waitFor();
  await expect.poll(() => tree.getByTestId('tree-summary').textContent()).toBe('1203 messages · 2 branch points');
  const file = await amber.screenshot('tree-paged-branch-opened');
  if (process.env.AMBER_DOCS_SCREENSHOT) copyFileSync(file, docsShot('tree-paged-branch-opened.png'));
  console.log(`tree view first screen: ${firstScreenMs} ms after the shortcut (1,200 messages, headless Chromium)`);
});
