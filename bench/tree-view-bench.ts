// `npm run bench -- tree-view [FILE]`: the window's tree view of a long conversation, in Chromium against the
// headless shell. FILE is a data file a sessions bench kept (`AMBER_BENCH_DIR=DIR npm run bench:sessions --
// 1000000` leaves DIR/amber.db: a million entries, branching every ~50, built once in minutes); the bench opens a
// copy of it and the conversation with the most entries. Without FILE it writes a conversation of
// AMBER_TREE_ENTRIES entries (default 20,000) the same way (a jump back every ~50 entries, so the next one forks).
// Measures, medians of AMBER_BENCH_SAMPLES (default 5) opens of the tree, each from the tree closed:
//   tree_first_screen_ms — a click on the tree button → the leaf's row painted (the first page of the active
//                          branch read over the API and laid out), measured in the page;
//   tree_page_api_ms     — the same first page asked of sessions.treePage over the shell's WebSocket, answer parsed;
// and prints one JSON object on its last line. AMBER_BENCH_SCREENSHOT=FILE.png also saves a picture of the tree's first screen.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startHeadless } from '../src/main/headless/headless-shell.ts';
import type { SessionStore } from '../src/main/sessions/index.ts';
import buildRenderer from '../tests/browser/global-setup.ts';
import { launchChromium } from '../tests/browser/harness.ts';
import { assistant, user } from '../tests/browser/seed.ts';
import { connectWs } from '../tests/fixtures/ws-client.ts';

const root = resolve(import.meta.dirname, '..');
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number): number => Math.round(x * 10) / 10;

/** A conversation of `n` entries, user and reply in turn, jumping back up to 30 entries every 50 so the next one forks. */
function seedForked(store: SessionStore, n: number): string {
  const { id } = store.create({ title: `${n.toLocaleString('en')} entries, forked every 50` });
  const parents = new Map<string, string | null>();
  let leaf: string | null = null;
  for (let i = 0; i < n; i += 2) {
    if (i > 0 && i % 50 === 0 && leaf) {
      for (let k = 0, steps = 1 + ((i * 7919) % 30); k < steps && parents.get(leaf); k++) leaf = parents.get(leaf)!;
      store.branch(id, leaf);
    }
    const [question, answer] = store.appendMany(id, [user(`Question ${i / 2 + 1}?`), assistant(`Answer ${i / 2 + 1}.`)]);
    parents.set(question!.id, leaf);
    parents.set(answer!.id, question!.id);
    leaf = answer!.id;
  }
  return id;
}

/** Clicks the tree button and measures, in the page, the time until the frame with the leaf's row is painted. */
function openTree(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((done) => {
        const button = document.querySelector<HTMLElement>('[data-testid=toggle-tree]');
        if (!button) throw new Error('no tree button');
        const t0 = performance.now();
        const painted = () =>
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.addEventListener('message', () => done(performance.now() - t0));
            ch.port1.start();
            ch.port2.postMessage(null);
          });
        const mo = new MutationObserver(() => {
          if (document.querySelector('[data-testid=tree-view] [data-testid=tree-node].is-leaf') !== null) {
            mo.disconnect();
            painted();
          }
        });
        mo.observe(document.body, { childList: true, subtree: true, attributes: true });
        button.click();
      }),
  );
}

async function main(): Promise<void> {
  const file = process.argv[2];
  const samples = Number(process.env.AMBER_BENCH_SAMPLES ?? 5);
  buildRenderer();
  const dir = mkdtempSync(join(tmpdir(), 'amber-tree-bench-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  if (file) copyFileSync(resolve(file), join(dataDir, 'amber.db'));
  const shell = await startHeadless({ dataDir, rendererDir: join(root, 'out', 'renderer'), core: { workspace: dir, home: dir, startPlugins: false } });
  const context = await launchChromium(join(dir, 'profile'));
  const ws = await connectWs(shell.port, shell.token);
  try {
    const store = shell.app.sessions;
    let t = performance.now();
    const sessionId = file ? largest(store) : seedForked(store, Number(process.env.AMBER_TREE_ENTRIES ?? 20_000));
    const { messageCount } = store.get(sessionId);
    console.log(`${file ? 'opened' : 'seeded'} a conversation of ${messageCount.toLocaleString('en')} messages in ${Math.round(performance.now() - t)} ms`);
    await context.addInitScript(() => localStorage.setItem('amber.setupSkipped', '1'));
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(shell.url);
    await page.locator(`[data-testid=session-row][data-session-id="${sessionId}"]`).click();
    await page.locator('[data-testid=transcript] [data-entry-id]').first().waitFor();
    for (let i = 0; i < 3; i++) await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 3000 })));

    const screens: number[] = [];
    const calls: number[] = [];
    for (let k = 0; k < samples; k++) {
      screens.push(await openTree(page));
      await page.locator('[data-testid=tree-view] [data-testid=tree-node].is-leaf').waitFor();
      // The tree settles (the small branches it opens by itself read) before it is closed again.
      for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 3000 })));
      await page.getByTestId('toggle-tree').click();
      await page.getByTestId('tree-view').waitFor({ state: 'detached' });
      t = performance.now();
      await ws.call('sessions.treePage', { sessionId, limit: 200 });
      calls.push(performance.now() - t);
    }
    // AMBER_BENCH_SCREENSHOT=FILE.png: a picture of the tree's first screen, for the docs.
    const shot = process.env.AMBER_BENCH_SCREENSHOT;
    if (shot) {
      await page.getByTestId('toggle-tree').click();
      await page.locator('[data-testid=tree-view] [data-testid=tree-node].is-leaf').waitFor();
      for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 3000 })));
      await page.getByTestId('tree-view').screenshot({ path: resolve(shot) });
    }
    console.log(`tree first screen: ${screens.map(round).join(', ')} ms; sessions.treePage over the WebSocket: ${calls.map(round).join(', ')} ms`);
    console.log(JSON.stringify({ messages: messageCount, samples, tree_first_screen_ms: round(median(screens)), tree_page_api_ms: round(median(calls)) }));
  } finally {
    ws.close();
    await context.close();
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The conversation with the most messages. */
function largest(store: SessionStore): string {
  const sessions = store.list({ limit: 100_000 });
  return sessions.reduce((a, b) => (b.messageCount > a.messageCount ? b : a), sessions[0]!).id;
}

await main();
