// UI benchmark in Chromium against the headless shell: opening a 2,000-message session, streaming at 200
// tokens/s through the real agent and the loopback provider server, and scrolling a 5,000-session sidebar.
// Prints a few lines, then one JSON object on the last line.
//
//   npm run bench:ui
//
//   first_page_of_2000_ms        click on the 2,000-message session's row → the first page of its transcript
//                                (the newest entries, paged from the leaf) painted; median of 5. It is the
//                                first page, not the whole session: older pages load as the user scrolls up
//   first_page_of_2000_first_ms  the same, the first of the five opens
//   stream_frame_p50/p95_ms      frame times while a reply streams in at 200 tokens/s
//   sidebar5000_*                long tasks while wheel-scrolling a 5,000-session sidebar to its end
//
// Frame times are measured with Chromium's frame-rate limit off (--disable-frame-rate-limit,
// --disable-gpu-vsync): each interval between two animation frames is then the time the page took to
// produce that frame (script, style, layout, paint), not the display's 16.7 ms refresh period.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startHeadless } from '../src/main/headless/headless-shell.ts';
import { openAiStream, startProviderServer } from '../tests/fixtures/provider-server.ts';
import { coreFor } from '../tests/fixtures/loopback-model.ts';
import buildRenderer from '../tests/browser/global-setup.ts';
import { launchChromium } from '../tests/browser/harness.ts';
import { seedLinear } from '../tests/browser/seed.ts';

const SESSIONS = 5000;
const MESSAGES = 2000;
const TOKENS = 600;
const TOKENS_PER_SECOND = 200;
const OPEN_RUNS = 5;

const root = resolve(import.meta.dirname, '..');
const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! : 0;
};
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};
const round = (x: number): number => Math.round(x * 10) / 10;

/** Clicks a sidebar row and measures, in the page, the time to the first paint of the transcript's first page. */
async function openSession(page: Page, sessionId: string): Promise<number> {
  return page.evaluate(
    (id) =>
      new Promise<number>((done) => {
        const row = document.querySelector<HTMLElement>(`[data-testid=session-row][data-session-id="${id}"]`);
        if (!row) throw new Error(`no sidebar row for ${id}`);
        const t0 = performance.now();
        const painted = () =>
          requestAnimationFrame(() => {
            // The frame after the transcript was committed has been painted once this task runs.
            const ch = new MessageChannel();
            ch.port1.addEventListener('message', () => done(performance.now() - t0));
            ch.port1.start();
            ch.port2.postMessage(null);
          });
        const ready = () =>
          document.querySelector(`[data-testid=chat] [data-testid=transcript] [data-entry-id]`) !== null &&
          document.querySelector('[data-testid=session-row].is-active')?.getAttribute('data-session-id') === id;
        const mo = new MutationObserver(() => {
          if (ready()) {
            mo.disconnect();
            painted();
          }
        });
        mo.observe(document.body, { childList: true, subtree: true, attributes: true });
        row.click();
      }),
    sessionId,
  );
}

async function main(): Promise<void> {
  buildRenderer();
  const dir = mkdtempSync(join(tmpdir(), 'amber-ui-bench-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  const tokens = Array.from({ length: TOKENS }, (_, i) => (i % 60 === 59 ? 'end.\n\n' : i % 97 === 0 ? '**bold** ' : `tok${i} `));
  const model = await startProviderServer({ script: () => openAiStream({ text: tokens }, { pace: { framesPerSecond: TOKENS_PER_SECOND } }) });
  const shell = await startHeadless({
    dataDir: join(dir, 'data'),
    rendererDir: join(root, 'out', 'renderer'),
    core: { ...coreFor(model, workspace), startPlugins: false },
  });
  const context = await launchChromium(join(dir, 'profile'), { width: 1280, height: 800 }, ['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  try {
    const store = shell.app.sessions;
    const t = performance.now();
    for (let i = 0; i < SESSIONS - 2; i++) store.create({ title: `Session ${i}` });
    const other = seedLinear(store, 'Another conversation', 10).sessionId;
    const big = seedLinear(store, `A ${MESSAGES}-message conversation`, MESSAGES).sessionId;
    console.log(`seeded ${SESSIONS} sessions and a ${MESSAGES}-message one in ${Math.round(performance.now() - t)} ms`);

    await context.addInitScript(() => {
      localStorage.setItem('amber.setupSkipped', '1');
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
      if (location.search.includes('debug')) {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as {
            duration: number;
            startTime: number;
            blockingDuration: number;
            scripts: { invoker: string; duration: number; sourceFunctionName: string; sourceCharPosition: number }[];
          }[]) {
            console.log(
              `LoAF ${Math.round(e.startTime)} dur ${Math.round(e.duration)} block ${Math.round(e.blockingDuration)} ${e.scripts.map((x) => `${x.invoker}/${x.sourceFunctionName}@${x.sourceCharPosition}:${Math.round(x.duration)}`).join(' | ')}`,
            );
          }
        }).observe({ type: 'long-animation-frame', buffered: false });
      }
    });
    const page = context.pages()[0] ?? (await context.newPage());
    if (process.env.UI_BENCH_DEBUG) page.on('console', (m) => console.log(`[page] ${m.text()}`));
    await page.goto(process.env.UI_BENCH_DEBUG ? `${shell.url}&debug` : shell.url);
    await page.locator(`[data-testid=session-row][data-session-id="${big}"]`).waitFor();
    // The window has settled (start-up fetches and idle warm-up done) before anything is timed.
    for (let i = 0; i < 3; i++) await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 3000 })));

    // 1. Opening the 2,000-message session up to its first page painted (alternating with a small one so each
    // open is a fresh mount).
    const opens: number[] = [];
    for (let i = 0; i < OPEN_RUNS; i++) {
      opens.push(await openSession(page, big));
      await page
        .locator('[data-testid=message]')
        .filter({ hasText: `That is all for message ${MESSAGES}.` })
        .waitFor();
      await openSession(page, other);
    }
    console.log(`first page of the ${MESSAGES}-message session: ${opens.map(round).join(', ')} ms`);

    // 2. Streaming at 200 tokens/s into a new chat, frame times recorded in the page.
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer').fill('Stream six hundred tokens, please.');
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__frames = [];
      w.__recording = true;
      let last = performance.now();
      const tick = (now: number) => {
        if (document.querySelector('[data-streaming]')) w.__frames.push(now - last);
        last = now;
        if (w.__recording) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const streamStart = performance.now();
    await page.keyboard.press('Enter');
    await page.locator('[data-streaming]').waitFor();
    await page
      .locator('[data-testid=message][data-role=assistant]:not([data-streaming])')
      .filter({ hasText: `tok${TOKENS - 2}` })
      .waitFor({ timeout: 60_000 });
    const streamSeconds = (performance.now() - streamStart) / 1000;
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__recording = false;
      return w.__frames;
    });
    console.log(
      `stream: ${frames.length} frames over ${streamSeconds.toFixed(1)} s, p50 ${round(median(frames))} ms, p95 ${round(p95(frames))} ms, max ${round(Math.max(...frames))} ms`,
    );
    await page.getByTestId('send').waitFor({ state: 'attached' });

    // 3. Scrolling the 5,000-session sidebar from top to bottom by wheel.
    await page.evaluate(() => {
      (window as unknown as { __longTasks: number[] }).__longTasks = [];
    });
    if (process.env.UI_BENCH_DEBUG) console.log(`scroll starts at ${Math.round(await page.evaluate(() => performance.now()))}`);
    const list = page.getByTestId('session-list');
    const box = (await list.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const rowsTotal = await page.locator('[data-testid=session-row]').count();
    let steps = 0;
    for (;;) {
      await page.mouse.wheel(0, 1200);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
      steps++;
      const atEnd = await list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
      if (atEnd || steps > 1000) break;
    }
    await page.locator('.session-title').getByText('Session 0', { exact: true }).waitFor();
    const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    console.log(`sidebar: ${steps} wheel steps, ${rowsTotal} rows in the DOM, ${longTasks.length} long tasks`);

    const result = {
      first_page_of_2000_ms: round(median(opens)),
      first_page_of_2000_first_ms: round(opens[0]!),
      stream_frame_p95_ms: round(p95(frames)),
      stream_frame_p50_ms: round(median(frames)),
      stream_frames: frames.length,
      stream_wall_s: round(streamSeconds),
      sidebar5000_longtask_max_ms: round(longTasks.length ? Math.max(...longTasks) : 0),
      sidebar5000_longtasks: longTasks.length,
      sidebar5000_scroll_steps: steps,
    };
    console.log(JSON.stringify(result));
  } finally {
    await context.close();
    await shell.close();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
