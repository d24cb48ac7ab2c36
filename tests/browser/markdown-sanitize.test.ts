// Markdown from a model goes through renderMarkdown (marked, then DOMPurify) before it reaches the page.
// DOMPurify needs a real DOM, so the real function runs in Chromium: src/renderer/chat/markdown.ts is
// bundled on its own, loaded into a blank page, and its output is put into the document and inspected.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from './harness.ts';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let context: BrowserContext;
let page: Page;

/** What a rendering put into the document: its HTML and every element's tag and attributes. */
interface Rendered {
  html: string;
  text: string;
  elements: { tag: string; attrs: Record<string, string> }[];
  /** Set by any script or handler of the tested input that managed to run. */
  ran: boolean;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-markdown-'));
  await build({
    configFile: false,
    logLevel: 'error',
    root,
    build: {
      lib: { entry: join(root, 'src/renderer/chat/markdown.ts'), formats: ['iife'], name: 'AmberMarkdown', fileName: () => 'markdown.js' },
      outDir: join(dir, 'bundle'),
      emptyOutDir: true,
      minify: false,
    },
  });
  context = await launchChromium(join(dir, 'profile'));
  page = await context.newPage();
  await page.setContent('<!doctype html><html><head><title>markdown</title></head><body><div id="out"></div></body></html>');
  await page.addScriptTag({ path: join(dir, 'bundle', 'markdown.js') });
});

afterAll(async () => {
  await context?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Renders `source` with the real renderMarkdown, puts the result into the page as the app does, and waits a frame. */
async function render(source: string): Promise<Rendered> {
  return page.evaluate(async (src) => {
    const w = window as unknown as { AmberMarkdown: { renderMarkdown(s: string): string }; __ran?: boolean };
    w.__ran = false;
    const out = document.getElementById('out')!;
    out.innerHTML = w.AmberMarkdown.renderMarkdown(src);
    // Handlers such as onerror fire after insertion: two frames give them their chance.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const elements = [...out.querySelectorAll('*')].map((e) => ({
      tag: e.tagName.toLowerCase(),
      attrs: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value])),
    }));
    return { html: out.innerHTML, text: out.textContent ?? '', elements, ran: Reflect.get(window, '__ran') === true };
  }, source);
}

const tags = (r: Rendered) => r.elements.map((e) => e.tag);
const urls = (r: Rendered) =>
  r.elements.flatMap((e) => ['href', 'src', 'xlink:href', 'action', 'formaction'].flatMap((a) => (e.attrs[a] !== undefined ? [e.attrs[a]!] : [])));
const handlers = (r: Rendered) => r.elements.flatMap((e) => Object.keys(e.attrs).filter((a) => a.startsWith('on')));

describe('what the model writes cannot run in the window', () => {
  test('a script tag is shown as text, never as an element, and never runs', async () => {
    const r = await render('Here:\n\n<script>window.__ran = true</script>\n\nand inline <script>window.__ran = true</script> too.');
    expect(tags(r)).not.toContain('script');
    expect(r.ran).toBe(false);
    expect(r.text).toContain('<script>window.__ran = true</script>');
  });

  test.each([
    ['an image', '<img src="x" onerror="window.__ran = true">'],
    ['an svg', '<svg onload="window.__ran = true"><circle r="1"/></svg>'],
    ['a link', '<a href="https://example.com" onclick="window.__ran = true" onmouseover="window.__ran = true">x</a>'],
    ['a details element', '<details open ontoggle="window.__ran = true">x</details>'],
  ])('event handler attributes on %s in raw HTML leave no handler and no element', async (_what, html) => {
    const r = await render(`before\n\n${html}\n\nafter ${html}`);
    expect(handlers(r)).toEqual([]);
    expect(tags(r)).not.toEqual(expect.arrayContaining(['img', 'svg', 'details']));
    expect(r.ran).toBe(false);
  });

  test.each([
    ['a markdown link', '[click me](javascript:window.__ran=true)'],
    ['mixed case', '[click me](JaVaScRiPt:window.__ran=true)'],
    ['an entity inside the scheme', '[click me](java&#x09;script:window.__ran=true)'],
    ['an autolink', '<javascript:window.__ran=true>'],
    ['a reference link', '[click me][x]\n\n[x]: javascript:window.__ran=true'],
    ['a vbscript link', '[click me](vbscript:msgbox(1))'],
  ])('a javascript: URL in %s is not kept as a link target', async (_what, source) => {
    const r = await render(source);
    expect(urls(r).every((u) => /^(https?:|mailto:|#)/i.test(u))).toBe(true);
    expect(r.ran).toBe(false);
  });

  test.each([
    ['html', '[open](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['an svg image', '[open](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9IndpbmRvdy5fX3Jhbj10cnVlIi8+)'],
    ['raw HTML', '<a href="data:text/html,<script>window.__ran=true</script>">open</a>'],
  ])('a data: URL of %s as a link target is dropped', async (_what, source) => {
    const r = await render(source);
    expect(urls(r).filter((u) => u.trim().toLowerCase().startsWith('data:'))).toEqual([]);
    expect(r.ran).toBe(false);
  });

  test('a data: image stays an inert image: an svg with a script in it is only ever an img, and nothing in it runs', async () => {
    // DOMPurify keeps data: sources on images (the page's CSP allows img-src data:); an image cannot run script.
    const r = await render('![pixel](data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0id2luZG93Ll9fcmFuPXRydWUiLz4=)');
    const withData = r.elements.filter((e) => Object.values(e.attrs).some((v) => v.trim().toLowerCase().startsWith('data:')));
    expect(withData.map((e) => e.tag)).toEqual(['img']);
    expect(tags(r)).not.toEqual(expect.arrayContaining(['object', 'embed', 'iframe', 'svg']));
    await page.waitForFunction(() => [...document.querySelectorAll('#out img')].every((i) => (i as HTMLImageElement).complete));
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran === true)).toBe(false);
  });

  test('forms, frames and styles from raw HTML are not elements of the page', async () => {
    const r = await render(
      '<form action="https://evil.example"><input name="k"><button>Go</button></form>\n\n<iframe src="https://evil.example"></iframe>\n\n<style>body{display:none}</style>',
    );
    expect(tags(r)).not.toEqual(expect.arrayContaining(['form', 'input', 'button', 'iframe', 'style']));
  });
});

describe('what markdown is for still renders', () => {
  test('an https link opens outside the window without a referrer or an opener', async () => {
    const r = await render('See [the docs](https://example.com/docs) or mail [us](mailto:team@example.com).');
    const links = r.elements.filter((e) => e.tag === 'a');
    expect(links.map((l) => l.attrs['href'])).toEqual(['https://example.com/docs', 'mailto:team@example.com']);
    for (const l of links) expect(l.attrs).toMatchObject({ target: '_blank', rel: 'noopener noreferrer' });
  });

  test('emphasis, lists, code blocks with their language and https images are kept', async () => {
    const r = await render('**bold** and `code`\n\n- one\n- two\n\n```ts\nconst x = 1;\n```\n\n![logo](https://example.com/logo.png)');
    expect(tags(r)).toEqual(expect.arrayContaining(['strong', 'code', 'ul', 'li', 'pre', 'img']));
    expect(r.elements.find((e) => e.tag === 'img')?.attrs['src']).toBe('https://example.com/logo.png');
    expect(r.text).toContain('const x = 1;');
    expect(r.elements.some((e) => e.attrs['class'] === 'code-lang')).toBe(true);
  });
});
