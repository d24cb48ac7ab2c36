// A tool whose result is one very long line (200 KB of minified JSON): the card draws a preview of it with
// "Show all (N KB)", Copy takes the whole text, and the page never lays out what it was not asked to show.
import { afterEach, expect, test } from 'vitest';
import type { HeadlessShell } from '../../src/main/headless/headless-shell.ts';
import { type Amber, startAmber } from './harness.ts';
import { seriousViolations } from './axe-audit.ts';
import { assistant, user } from './seed.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

/** About 200 KB of JSON on one line, as a minified API answer comes back. */
const JSON_LINE = JSON.stringify({
  items: Array.from({ length: 2600 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['alpha', 'beta'], price: i * 1.25, ok: i % 3 === 0 })),
});

function seedLongResult(shell: HeadlessShell): string {
  const store = shell.app.sessions;
  const s = store.create({ title: 'Minified' });
  store.appendMany(s.id, [
    user('Read the catalogue.'),
    {
      type: 'message',
      message: {
        role: 'assistant',
        stopReason: 'toolUse',
        model: 'demo-model',
        content: [{ type: 'toolCall', id: 'call_1', name: 'read_file', arguments: { path: 'catalogue.json' } }],
      },
    },
    {
      type: 'message',
      message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'read_file', isError: false, content: [{ type: 'text', text: JSON_LINE }] },
    },
    assistant('The catalogue has 2600 items.'),
  ]);
  return s.id;
}

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 800 },
] as const) {
  test(`one 200 KB line shows as a preview with Show all (N KB); Copy takes all of it (${theme}, ${width} px)`, async () => {
    expect(JSON_LINE.includes('\n')).toBe(false);
    expect(JSON_LINE.length).toBeGreaterThan(200_000);
    let sessionId = '';
    amber = await startAmber({ theme, viewport: { width, height: 760 }, seed: (shell) => void (sessionId = seedLongResult(shell)) });
    await amber.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(amber.shell.url).origin });
    await amber.open();
    const { page } = amber;
    if (!(await page.getByTestId('sidebar').isVisible())) await page.getByTestId('toggle-sidebar').click();
    const opened = Date.now();
    await page.locator(`[data-session-id="${sessionId}"]`).click();
    const card = page.getByTestId('tool-card');
    await card.getByTestId('tool-output-text').waitFor();
    await page.locator('[data-testid=message]').filter({ hasText: 'The catalogue has 2600 items.' }).waitFor();
    const openMs = Date.now() - opened;

    // A preview: the first 1,200 characters and a mark that more follows; the page holds no more than that of it.
    const preview = (await card.getByTestId('tool-output-text').textContent())!;
    expect(preview).toBe(`${JSON_LINE.slice(0, 1200)}…`);
    expect(await page.evaluate(() => document.body.textContent!.length)).toBeLessThan(20_000);
    const kb = Math.round(new TextEncoder().encode(JSON_LINE).length / 1024);
    const more = card.getByTestId('tool-output-more');
    expect(await more.textContent()).toBe(`Show all (${kb} KB)`);
    // The card stays a card: it does not grow with the text, and nothing scrolls sideways.
    expect((await card.boundingBox())!.height).toBeLessThan(600);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(page, '[data-testid=tool-card]')).toEqual([]);
    await amber.screenshot(`tool-output-long-${theme}-${width}`);

    // Copy takes the whole line, not the preview.
    await card.getByTestId('tool-output-text').hover();
    await card.getByTestId('copy-tool-output').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText().then((t) => t.length))).toBe(JSON_LINE.length);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(JSON_LINE);

    // Show all draws it whole, inside the card's own scroll; Show less folds it again.
    const shownAt = Date.now();
    await more.click();
    await expect.poll(() => card.getByTestId('tool-output-text').evaluate((el) => el.textContent!.length)).toBe(JSON_LINE.length);
    const showAllMs = Date.now() - shownAt;
    expect((await card.boundingBox())!.height).toBeLessThan(600);
    // The page still answers at once: a frame comes within a fraction of a second.
    const frameMs = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          const t = performance.now();
          requestAnimationFrame(() => done(performance.now() - t));
        }),
    );
    expect(frameMs).toBeLessThan(500);
    expect(await more.textContent()).toBe('Show less');
    await more.click();
    await expect.poll(() => card.getByTestId('tool-output-text').textContent()).toBe(`${JSON_LINE.slice(0, 1200)}…`);
    console.log(
      `200 KB one-line tool output (${theme}, ${width} px): conversation shown in ${openMs} ms, Show all drawn in ${showAllMs} ms, next frame ${Math.round(frameMs)} ms`,
    );
  });
}
