import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { type Amber, startAmber } from './harness.ts';
import { seedLinear } from './seed.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

test('a conversation another program changed opens read-only with a notice; an intact one does not', async () => {
  amber = await startAmber({
    seed: ({ app }) => {
      seedLinear(app.sessions, 'Intact', 4);
      const { entries } = seedLinear(app.sessions, 'Changed behind our back', 6);
      // Another program rewrites a message in place, through its own connection to the file.
      const db = new Database(join(app.dataDir, 'amber.db'));
      try {
        db.prepare(`UPDATE entries SET payload = json_set(payload, '$.message.content', 'rewritten') WHERE id = ?`).run(entries[2]!.id);
      } finally {
        db.close();
      }
    },
  });
  await amber.open();
  const { page } = amber;
  const notice = page.getByTestId('integrity-notice');
  const composer = page.getByTestId('composer');

  await page.locator('[data-testid=session-row]').filter({ hasText: 'Changed behind our back' }).click();
  await notice.waitFor();
  expect(await notice.textContent()).toContain(
    'This conversation was changed outside Amber (1 message no longer matches what Amber wrote), so it is read-only.',
  );
  expect(await composer.getAttribute('placeholder')).toBe('This conversation is read-only: it was changed outside Amber.');
  expect(await composer.isDisabled()).toBe(true);
  await amber.screenshot('tamper-notice');

  await page.locator('[data-testid=session-row]').filter({ hasText: 'Intact' }).click();
  await expect.poll(() => page.locator('[data-testid=session-row].is-active .session-title').textContent()).toBe('Intact');
  await expect.poll(() => notice.count()).toBe(0);
  expect(await composer.getAttribute('placeholder')).not.toContain('read-only');
});
