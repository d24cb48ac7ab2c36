// The per-run token leaves the address bar once the page has it, and the page still reconnects and reloads.
import { afterEach, expect, test } from 'vitest';
import { type Amber, startAmber } from './harness.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('the token leaves the address bar after load, and a dropped connection and a reload still reach the app', async () => {
  amber = await startAmber();
  const { page } = amber;
  await amber.open();
  const token = amber.shell.token;
  expect(page.url()).not.toContain(token);
  expect(await page.evaluate(() => location.href)).toBe(`http://127.0.0.1:${amber!.shell.port}/`);

  // The shell restarts under the page (same port and token): the page reconnects by itself.
  const reconnecting = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
  await amber.restartUnderPage((offline) => void offline.app.sessions.create({ title: 'Made while away' }));
  await page.locator('[data-testid=session-row]').filter({ hasText: 'Made while away' }).waitFor();
  await reconnecting.waitFor({ state: 'detached' });

  // A reload has no token in its URL: the tab's own copy lets it in.
  await page.reload();
  await page.locator('[data-testid=session-row]').filter({ hasText: 'Made while away' }).waitFor();
  expect(page.url()).not.toContain(token);
});
