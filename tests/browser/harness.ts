// One Amber in a real browser: the headless shell on a temp data dir, Debian's Chromium via playwright-core.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type HeadlessOptions, type HeadlessShell, startHeadless } from '../../src/main/headless/headless-shell.ts';

const root = resolve(import.meta.dirname, '../..');
export const SCREENSHOTS = join(root, 'test-results', 'screenshots');

/**
 * Where a test writes a picture the docs show: docs/images when AMBER_DOCS_SCREENSHOT is set (making the docs'
 * pictures), else beside the other screenshots, so a test run leaves the repository as it was.
 */
export function docsShot(name: string): string {
  const folder = process.env.AMBER_DOCS_SCREENSHOT ? join(root, 'docs', 'images') : SCREENSHOTS;
  mkdirSync(folder, { recursive: true });
  return join(folder, name);
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Amber {
  /** The shell now serving the window (replaced by restart()). */
  shell: HeadlessShell;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** Opens the app's URL (again), waiting for the sidebar (or the top bar, where the sidebar is folded away). */
  open(): Promise<void>;
  screenshot(name: string): Promise<string>;
  /** Stops the core and starts a fresh one on the same data dir, then opens its URL: an app restart. */
  restart(): Promise<void>;
  /**
   * Stops the core and starts a fresh one on the same port and token without touching the page, running
   * `meanwhile` against the new core before it listens: the open page must reconnect by itself.
   */
  restartUnderPage(meanwhile?: (shell: HeadlessShell) => void): Promise<void>;
  close(): Promise<void>;
}

export interface AmberOptions {
  /** Runs against the store before the window opens. */
  seed?: (shell: HeadlessShell) => void | Promise<void>;
  /** Skip the first-run screen (as a user who chose "Set up later"). Default true. */
  skipSetup?: boolean;
  viewport?: { width: number; height: number };
  theme?: 'light' | 'dark';
  extraArgs?: string[];
  /** Seams of the core: the provider resolver, tools, default model. */
  core?: HeadlessOptions['core'];
}

export async function launchChromium(profileDir: string, viewport = { width: 1280, height: 800 }, extraArgs: string[] = []): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

export async function startAmber(options: AmberOptions = {}): Promise<Amber> {
  const dir = mkdtempSync(join(tmpdir(), 'amber-browser-'));
  const dataDir = join(dir, 'data');
  let shell: HeadlessShell | null = null;
  let context: BrowserContext | null = null;
  try {
    // No generated titles unless a test asks (`core.autoTitle: true`): a scripted model's replies go to the conversation.
    const core = { autoTitle: false, ...options.core };
    shell = await startHeadless({ dataDir, rendererDir: join(root, 'out', 'renderer'), core });
    await options.seed?.(shell);
    context = await launchChromium(join(dir, 'profile'), options.viewport, options.extraArgs);
    const skip = options.skipSetup ?? true;
    const theme = options.theme ?? 'light';
    await context.addInitScript(
      ([skipSetup, chosenTheme]) => {
        if (skipSetup) localStorage.setItem('amber.setupSkipped', '1');
        if (!localStorage.getItem('amber.theme')) localStorage.setItem('amber.theme', chosenTheme as string);
      },
      [skip, theme] as const,
    );
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const c = context;
    const start = (same?: { port: number; token: string }) => startHeadless({ dataDir, rendererDir: join(root, 'out', 'renderer'), core, ...same });
    const amber: Amber = {
      shell,
      context: c,
      page,
      dataDir,
      async open() {
        await page.goto(amber.shell.url);
        // A narrow window folds the sidebar away: the top bar's title says the app is up as well.
        await page.locator('[data-testid=sidebar], [data-testid=first-run], [data-testid=session-title]').first().waitFor();
      },
      async screenshot(name) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        const file = join(SCREENSHOTS, `${name}.png`);
        await page.screenshot({ path: file, animations: 'disabled' });
        return file;
      },
      async restartUnderPage(meanwhile) {
        const same = { port: amber.shell.port, token: amber.shell.token };
        await amber.shell.close();
        if (meanwhile) {
          // Writes while no core serves the page: the page cannot hear of them as events.
          const offline = await start();
          meanwhile(offline);
          await offline.close();
        }
        amber.shell = await start(same);
      },
      async restart() {
        await amber.shell.close();
        amber.shell = await start();
        await amber.open();
      },
      async close() {
        await c.close();
        await amber.shell.close();
        rmSync(dir, { recursive: true, force: true });
        if (errors.length) throw new Error(`The page threw: ${errors.join('; ')}`);
      },
    };
    return amber;
  } catch (e) {
    await context?.close();
    await shell?.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
