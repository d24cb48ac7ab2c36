// What crosses the API channel with a message's attachments is checked there: a bad data URL, a text file
// named like an image, an image over the provider's limit, too many or too large attachments, a blob hash
// that does not exist. Each is refused with a sentence and nothing is stored. No file path crosses the
// channel at all (the window reads the files the user picked or dropped): an attachment given as a path is
// refused too.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ScriptedProvider, text } from '../agent/scripted-provider.ts';
import type { AppUnderTest } from '../fixtures/app-under-test.ts';
import { openScriptedApp } from '../fixtures/open-scripted-app.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let t: AppUnderTest;
let provider: ScriptedProvider;
let sessionId: string;

beforeEach(async () => {
  provider = new ScriptedProvider();
  t = openScriptedApp(provider, { prefix: 'amber-attach-hostile-' });
  sessionId = (await t.call<{ id: string }>('sessions.create', {})).id;
});

afterEach(() => t.close());

function blobCount(): number {
  const db = new Database(join(t.dataDir, 'amber.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM blobs').pluck().get() as number;
  } finally {
    db.close();
  }
}

async function refusedSend(attachments: unknown[], words = 'see attached'): Promise<string> {
  const error = await t.refused('chat.send', { sessionId, text: words, attachments });
  expect(error.code).toBe('invalid_input');
  expect(t.app.sessions.path(sessionId)).toEqual([]);
  expect(blobCount()).toBe(0);
  expect(provider.requests).toHaveLength(0);
  return error.message;
}

const image = (dataUrl: string) => ({ kind: 'image', name: 'photo.png', dataUrl });

test('an image with its words is accepted, stored once, and read back for the request (the refusals below are not for want of a model)', async () => {
  provider.push(text('Seen.'));
  await t.call('chat.send', { sessionId, text: 'look', attachments: [image(`data:image/png;base64,${PNG}`)] });
  await vi.waitFor(() => expect(t.app.agent.isRunning(sessionId)).toBe(false));
  expect(blobCount()).toBe(1);
  expect(provider.requests[0]!.messages[0]).toMatchObject({
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ],
  });
});

test('bad data URLs are refused at the channel', async () => {
  for (const dataUrl of [
    'data:image/png;base64,not base64 at all!',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'data:text/plain;base64,aGVsbG8=',
    `http://127.0.0.1/${PNG}`,
    `data:image/png,${PNG}`,
  ]) {
    expect(await refusedSend([image(dataUrl)])).toMatch(/base64 data URL/);
  }
});

test('a text file named like an image is refused with a sentence', async () => {
  const words = Buffer.from('Dear diary, this is not a picture.').toString('base64');
  expect(await refusedSend([image(`data:image/png;base64,${words}`)])).toBe(
    "The image photo.png is not a PNG, JPEG, WebP or GIF image (its bytes are not an image's).",
  );
});

test('a PNG sent as a JPEG is refused', async () => {
  expect(await refusedSend([image(`data:image/jpeg;base64,${PNG}`)])).toBe('The image photo.png says it is image/jpeg but its bytes are image/png.');
});

test('an image over the provider limit is refused before anything is stored', async () => {
  // 6 MB with a PNG's first bytes: over the 5 MB an Anthropic-limited (or unknown) provider takes.
  const big = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(6 * 1024 * 1024)]).toString('base64');
  expect(await refusedSend([image(`data:image/png;base64,${big}`)])).toMatch(/^The image photo\.png is (6\.0 MB, over the 5\.0 MB|larger than 5\.0 MB)/);
});

test('a huge image is refused by the channel schema without being decoded', async () => {
  const huge = `data:image/png;base64,${'A'.repeat(30 * 1024 * 1024)}`;
  expect(await refusedSend([image(huge)])).toMatch(/an image is at most 20 MB/);
});

test('too many attachments, a too long text file, and a message with neither words nor attachments are refused', async () => {
  const file = { kind: 'text', name: 'a.txt', text: 'x' };
  expect(await refusedSend(Array.from({ length: 11 }, () => file))).toMatch(/attachments/);
  expect(await refusedSend([{ ...file, text: 'x'.repeat(200_001) }])).toMatch(/a text file is attached up to 200,000 characters/);
  expect(await refusedSend([], '')).toMatch(/A message needs words or an attachment/);
});

test('an attachment given as a file path (a link, a secret) is refused: only contents cross the channel', async () => {
  expect(await refusedSend([{ kind: 'image', name: 'link.png', path: '/etc/passwd' }])).toMatch(/carries its contents as a data URL, never a file path/);
  expect(await refusedSend([{ kind: 'text', name: 'link.txt', path: '/etc/passwd' }])).toMatch(/carries its words, never a file path/);
  expect(await refusedSend([{ kind: 'file', name: 'x.bin', dataUrl: `data:image/png;base64,${PNG}` }])).toMatch(/attachments/);
});

test('blobs.get refuses a hash that names no stored image, and one that is not a hash', async () => {
  const missing = await t.refused('blobs.get', { hash: 'a'.repeat(64) });
  expect(missing).toEqual({ code: 'not_found', message: 'No stored image has the hash aaaaaaaaaaaa… (it may belong to a deleted conversation).' });
  for (const hash of ['../../etc/passwd', 'A'.repeat(64), 'a'.repeat(63), '']) expect((await t.refused('blobs.get', { hash })).code).toBe('invalid_input');
});

test('an edited message keeps its stored images by hash (no second copy), and a hash that names no stored image is refused', async () => {
  provider.push(text('Seen.'), text('Seen again.'));
  await t.call('chat.send', { sessionId, text: 'look', attachments: [image(`data:image/png;base64,${PNG}`)] });
  await vi.waitFor(() => expect(t.app.agent.isRunning(sessionId)).toBe(false));
  const first = t.app.sessions.path(sessionId).find((e) => e.type === 'message' && e.message.role === 'user')!;
  const hash = ((first.type === 'message' && (first.message.content as { blob?: string }[])[1]?.blob) || '') as string;
  expect(hash).toMatch(/^[0-9a-f]{64}$/);

  await t.call('chat.send', { sessionId, text: 'look again', parentId: first.parentId, attachments: [{ kind: 'stored', hash }] });
  await vi.waitFor(() => expect(t.app.agent.isRunning(sessionId)).toBe(false));
  const edited = t.app.sessions.path(sessionId).find((e) => e.type === 'message' && e.message.role === 'user')!;
  expect(edited.id).not.toBe(first.id);
  expect(edited.type === 'message' && edited.message.content).toEqual([
    { type: 'text', text: 'look again' },
    { type: 'image', mimeType: 'image/png', blob: hash },
  ]);
  expect(blobCount()).toBe(1);
  expect(provider.requests[1]!.messages[0]).toMatchObject({
    content: [
      { type: 'text', text: 'look again' },
      { type: 'image', data: PNG },
    ],
  });

  const before = t.app.sessions.path(sessionId).length;
  const missing = await t.refused('chat.send', { sessionId, text: 'and this?', attachments: [{ kind: 'stored', hash: 'b'.repeat(64) }] });
  expect(missing).toEqual({ code: 'invalid_input', message: 'The image bbbbbbbbbbbb… is no longer stored; attach it again.' });
  expect(t.app.sessions.path(sessionId)).toHaveLength(before);
  expect((await t.refused('chat.send', { sessionId, text: 'x', attachments: [{ kind: 'stored', hash: '../etc/passwd' }] })).code).toBe('invalid_input');
});
