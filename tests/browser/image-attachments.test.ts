// Images in the message box, as a user meets them: an image pasted into the box shows as a chip, goes with
// the message to a loopback model (asserted on the bytes the server received: an image_url data URL holding
// a PNG scaled down to 1568 px in the window), shows as a thumbnail in the transcript and opens in the
// viewer (Escape closes it). A model the catalog says reads no images gets a notice before sending, and Send
// waits. Screenshots in both themes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openAiStream, type ProviderServer, type Script, startProviderServer } from '../fixtures/provider-server.ts';
import { seriousViolations } from './axe-audit.ts';
import { type Amber, docsShot, startAmber } from './harness.ts';

let amber: Amber | null = null;
let server: ProviderServer;
let dir: string;

const script: Script = (req) =>
  req.method === 'GET'
    ? { kind: 'json', body: { object: 'list', data: [{ id: 'gpt-4o-mini' }, { id: 'gpt-3.5-turbo' }] } }
    : openAiStream({ text: ['An orange square.'] });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amber-image-attach-'));
  mkdirSync(join(dir, 'workspace'));
  server = await startProviderServer({ script });
});

afterEach(async () => {
  await amber?.close();
  amber = null;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(theme: 'light' | 'dark', model: string): Promise<Page> {
  amber = await startAmber({
    theme,
    core: { workspace: join(dir, 'workspace'), home: dir },
    seed: async ({ api }) => {
      await api.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model, models: ['gpt-4o-mini', 'gpt-3.5-turbo'] });
    },
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('new-chat').click();
  await expect.poll(() => page.getByTestId('model-picker').textContent(), { timeout: 20_000 }).toMatch(/GPT/);
  return page;
}

/** Pastes a PNG the page draws (width × height, orange with a dark band) into the message box, as a clipboard paste does. */
async function pasteImage(page: Page, width: number, height: number): Promise<void> {
  await page.getByTestId('composer').evaluate(
    async (area, [w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w!;
      canvas.height = h!;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#f08c1a';
      g.fillRect(0, 0, w!, h!);
      g.fillStyle = '#3a2200';
      g.fillRect(0, Math.round(h! * 0.4), w!, Math.round(h! * 0.2));
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const data = new DataTransfer();
      data.items.add(new File([blob], 'screenshot.png', { type: 'image/png' }));
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [width, height],
  );
}

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

test('an image pasted into the box reaches the model as an image_url data URL, scaled down, and shows as a thumbnail that opens in the viewer', async () => {
  const page = await open('light', 'gpt-4o-mini');
  await pasteImage(page, 3000, 2000);
  const chip = page.getByTestId('attachment-chip');
  await expect.poll(() => chip.count()).toBe(1);
  expect(await chip.textContent()).toContain('1568×1045');
  // The chip's Remove button is reachable from the keyboard and named after the file.
  await expect.poll(() => page.getByRole('button', { name: 'Remove screenshot.png' }).isVisible()).toBe(true);
  await page.getByTestId('composer').fill('What is in this picture?');
  await page.screenshot({ path: docsShot('image-attach-chip.png'), animations: 'disabled' });
  expect(await seriousViolations(page, '.composer')).toEqual([]);
  const before = server.requests.length;
  await page.getByTestId('send').click();
  await expect.poll(() => page.locator('[data-role=assistant]').last().textContent(), { timeout: 20_000 }).toContain('An orange square.');
  expect(await chip.count()).toBe(0);

  const request = server.requests.slice(before).find((r) => r.method === 'POST')!;
  const user = (request.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === 'user')!;
  const parts = user.content as { type: string; text?: string; image_url?: { url: string } }[];
  expect(parts[0]).toEqual({ type: 'text', text: 'What is in this picture?' });
  expect(parts[1]?.type).toBe('image_url');
  const url = parts[1]!.image_url!.url;
  expect(url.startsWith('data:image/png;base64,')).toBe(true);
  const bytes = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(pngSize(bytes)).toEqual({ width: 1568, height: 1045 });

  // The transcript shows the stored image as a thumbnail; it opens in the viewer, and Escape closes it.
  const thumb = page.getByTestId('image-thumb');
  await expect.poll(() => thumb.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1568);
  await page.screenshot({ path: docsShot('image-attach-sent.png'), animations: 'disabled' });
  await thumb.click();
  const viewer = page.getByTestId('image-viewer');
  await expect.poll(() => viewer.isVisible()).toBe(true);
  expect(await viewer.getByRole('heading').textContent()).toBe('Attached image');
  await page.screenshot({ path: docsShot('image-viewer.png'), animations: 'disabled' });
  expect(await seriousViolations(page, '[data-testid=image-viewer]')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect.poll(() => viewer.count()).toBe(0);
});

test('a model that reads no images gets a notice before sending, Send waits; without the image, the words and a dropped text file go (dark theme)', async () => {
  const page = await open('dark', 'gpt-3.5-turbo');
  // A text file named like an image is refused with a sentence before anything is sent or shown as a chip.
  await page.getByTestId('attach-input').setInputFiles({ name: 'holiday.png', mimeType: 'image/png', buffer: Buffer.from('Dear diary, not a picture.') });
  await page.getByTestId('toast').filter({ hasText: 'holiday.png is not an image that can be read' }).waitFor();
  expect(await page.getByTestId('attachment-chip').count()).toBe(0);
  await pasteImage(page, 64, 48);
  await expect.poll(() => page.getByTestId('attachment-chip').count()).toBe(1);
  await page.getByTestId('composer').fill('Describe it');
  const notice = page.getByTestId('images-refused');
  await expect.poll(() => notice.textContent()).toBe('GPT-3.5-turbo does not accept images: remove the image or choose a model that reads images.');
  expect(await page.getByTestId('send').isDisabled()).toBe(true);
  await page.screenshot({ path: docsShot('image-refused-dark.png'), animations: 'disabled' });
  expect(await seriousViolations(page, '.composer')).toEqual([]);
  const posts = () => server.requests.filter((r) => r.method === 'POST').length;
  expect(posts()).toBe(0);

  await page.getByRole('button', { name: 'Remove screenshot.png' }).click();
  await expect.poll(() => notice.count()).toBe(0);
  // A text file dropped on the box goes as text with its name (a model without images reads it).
  await page.locator('.composer-box').evaluate((box) => {
    const data = new DataTransfer();
    data.items.add(new File(['the launch is on Tuesday'], 'notes.txt', { type: 'text/plain' }));
    box.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect.poll(() => page.getByTestId('attachment-chip').getAttribute('data-kind')).toBe('text');
  await page.getByTestId('send').click();
  await expect.poll(() => page.locator('[data-role=assistant]').last().textContent(), { timeout: 20_000 }).toContain('An orange square.');
  const request = server.requests.find((r) => r.method === 'POST')!;
  expect((request.body as { messages: unknown[] }).messages.at(-1)).toEqual({
    role: 'user',
    content: 'Describe it\nAttached file notes.txt:\n```\nthe launch is on Tuesday\n```',
  });
  // The message shows the file by its name, not its words.
  expect(await page.getByTestId('file-attachment').textContent()).toContain('notes.txt');
  expect(await page.locator('[data-role=user]').textContent()).not.toContain('Tuesday');
});

test("a tool's image shows on its card as a thumbnail, opens in the viewer, and goes to the model after the tool's text", async () => {
  const png = orangePng(40, 30);
  server.setScript((req) =>
    req.method === 'GET'
      ? { kind: 'json', body: { object: 'list', data: [{ id: 'gpt-4o-mini' }] } }
      : server.requests.filter((r) => r.method === 'POST').length === 1
        ? openAiStream({ toolCalls: [{ id: 'call_shot', name: 'screenshot', arguments: {} }] })
        : openAiStream({ text: ['The screen is orange.'] }),
  );
  amber = await startAmber({
    core: {
      workspace: join(dir, 'workspace'),
      home: dir,
      tools: {
        list: () => [
          { name: 'screenshot', description: 'Takes a screenshot.', parameters: { type: 'object', properties: {} }, readOnly: true, pathParams: [] },
        ],
        execute: async () => ({ content: [{ type: 'text', text: 'Took a screenshot.' }], images: [{ data: png, mimeType: 'image/png' }], isError: false }),
      },
    },
    seed: async ({ api }) => {
      await api.call('providers.save', { providerId: 'custom', baseUrl: `${server.url}/v1`, model: 'gpt-4o-mini' });
    },
  });
  await amber.open();
  const { page } = amber;
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').fill('Take a screenshot');
  await page.getByTestId('send').click();
  await expect.poll(() => page.locator('[data-role=assistant]').last().textContent(), { timeout: 20_000 }).toContain('The screen is orange.');
  const thumb = page.locator('.tool-card [data-testid=image-thumb]');
  await expect.poll(() => thumb.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(40);
  await page.screenshot({ path: docsShot('image-tool-card.png'), animations: 'disabled' });
  await thumb.click();
  await expect.poll(() => page.getByTestId('image-viewer').getByRole('heading').textContent()).toBe('Image from screenshot');
  await page.keyboard.press('Escape');

  const second = server.requests.filter((r) => r.method === 'POST')[1]!;
  const messages = (second.body as { messages: { role: string; content: unknown }[] }).messages;
  const tool = messages.findIndex((m) => m.role === 'tool');
  // The tool message marks where the image was; the image follows it.
  expect(messages[tool]).toMatchObject({ role: 'tool', content: 'Took a screenshot.\n[image]' });
  expect(messages[tool + 1]!.content).toEqual([
    { type: 'text', text: 'The images the tool results above returned:' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
  ]);
});

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A solid orange RGB PNG of width × height, as base64, made in Node for a tool to return. */
function orangePng(width: number, height: number): string {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([0xf0, 0x8c, 0x1a], 1 + x * 3);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

test('an image attached while a reply streams goes with the steering message: the model receives it and the transcript shows it', async () => {
  let release!: () => void;
  const gate = new Promise<void>((res) => (release = res));
  let posts = 0;
  // The first reply waits until the steering message is queued; the second answers it.
  server.setScript(async (req) => {
    if (req.method === 'GET') return { kind: 'json', body: { object: 'list', data: [{ id: 'gpt-4o-mini' }] } };
    posts++;
    if (posts === 1) await gate;
    return openAiStream({ text: [posts === 1 ? 'Working on it.' : 'Now I see the picture.'] });
  });
  const page = await open('light', 'gpt-4o-mini');
  const composer = page.getByTestId('composer');
  await composer.fill('Start the report');
  await page.keyboard.press('Enter');
  await page.getByTestId('abort').waitFor({ timeout: 20_000 });
  await pasteImage(page, 400, 300);
  const chip = page.getByTestId('attachment-chip');
  await expect.poll(() => chip.count()).toBe(1);
  await composer.fill('Use this chart too');
  // While the reply streams, Steer (Enter) takes the attachment along.
  expect(await page.getByRole('button', { name: 'Steer' }).isEnabled()).toBe(true);
  await page.screenshot({ path: docsShot('image-steer-chip.png'), animations: 'disabled' });
  await page.keyboard.press('Enter');
  await expect.poll(() => chip.count()).toBe(0);
  expect(await composer.inputValue()).toBe('');
  release();

  await expect.poll(() => page.locator('[data-role=assistant]').last().textContent(), { timeout: 20_000 }).toContain('Now I see the picture.');
  const posted = server.requests.filter((r) => r.method === 'POST');
  expect(posted).toHaveLength(2);
  const last = (posted[1]!.body as { messages: { role: string; content: unknown }[] }).messages.at(-1)!;
  expect(last.role).toBe('user');
  const parts = last.content as { type: string; text?: string; image_url?: { url: string } }[];
  expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
  expect(parts[0]!.text).toBe('Use this chart too');
  expect(pngSize(Buffer.from(parts[1]!.image_url!.url.slice('data:image/png;base64,'.length), 'base64'))).toEqual({ width: 400, height: 300 });
  const steered = page.locator('[data-testid=message][data-role=user]').filter({ hasText: 'Use this chart too' });
  await expect.poll(() => steered.getByTestId('image-thumb').count()).toBe(1);
  await page.screenshot({ path: docsShot('image-steer-sent.png'), animations: 'disabled' });
});
