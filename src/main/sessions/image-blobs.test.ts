import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { EntryInput } from '../../shared/sessions/index.ts';
import { blobHash } from './blob-store.ts';
import { inlineImages, MISSING_IMAGE_NOTE } from './image-blobs.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
import { exportPiSession } from './pi-session-export.ts';
import { importPiSession } from './pi-session-import.ts';
import { SessionStore } from './session-store.ts';
import { SessionTrash } from './session-trash.ts';

/** A real 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_HASH = blobHash(Buffer.from(PNG, 'base64'));

let dir: string;
let file: string;
let store: SessionStore;

const withImage = (image: Record<string, unknown>): EntryInput => ({
  type: 'message',
  message: {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image', mimeType: 'image/png', ...image },
    ],
  },
});
const blobCount = () => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM blobs').pluck().get() as number;
  } finally {
    db.close();
  }
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-blobs-'));
  file = join(dir, 'amber.db');
  store = SessionStore.open(file);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('an image is stored once as a blob and the entry names its hash, not its bytes', () => {
  const s = store.create();
  const first = store.append(s.id, withImage({ data: PNG }));
  store.append(s.id, withImage({ data: PNG }));
  const content = (first.type === 'message' && (first.message.content as { type: string; blob?: string; data?: string }[])) || [];
  expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', blob: PNG_HASH });
  expect(content[1]).not.toHaveProperty('data');
  expect(blobCount()).toBe(1);
  expect(store.blobs.get(PNG_HASH)?.bytes.toString('base64')).toBe(PNG);
  // Read back from the file after a restart, the entry still names the blob.
  store.close();
  store = SessionStore.open(file);
  const read = store.entry(s.id, first.id);
  expect(JSON.stringify(read)).toContain(PNG_HASH);
  expect(JSON.stringify(read)).not.toContain(PNG);
});

test('the context reads each image back as data for the provider, and a missing blob as a note', () => {
  const s = store.create();
  store.append(s.id, withImage({ data: PNG }));
  const sent = inlineImages(store.context(s.id).messages, store.blobs);
  expect((sent[0] as { content: unknown[] }).content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG });
  const gone = inlineImages(store.context(s.id).messages, { get: () => null });
  expect((gone[0] as { content: unknown[] }).content[1]).toEqual({ type: 'text', text: MISSING_IMAGE_NOTE });
});

test('the chained hash covers the reference: another blob named in place is found changed', () => {
  const s = store.create();
  const entry = store.append(s.id, withImage({ data: PNG }));
  store.close();
  const db = new Database(file);
  const payload = db.prepare('SELECT payload FROM entries WHERE id = ?').pluck().get(entry.id) as string;
  db.prepare('UPDATE entries SET payload = ? WHERE id = ?').run(payload.replace(PNG_HASH, 'f'.repeat(64)), entry.id);
  db.close();
  store = SessionStore.open(file);
  expect(store.check(s.id).changed).toEqual([entry.id]);
});

test('a text file named like an image is refused with a sentence, and nothing is stored', () => {
  const s = store.create();
  const fake = Buffer.from('just some words, not a picture at all').toString('base64');
  expect(() => store.append(s.id, withImage({ data: fake }))).toThrow(/not a PNG, JPEG, WebP or GIF image/);
  expect(store.get(s.id).messageCount).toBe(0);
  expect(blobCount()).toBe(0);
});

test('an image whose bytes are another type than it says is refused', () => {
  const s = store.create();
  const entry: EntryInput = { type: 'message', message: { role: 'user', content: [{ type: 'image', mimeType: 'image/jpeg', data: PNG }] } };
  expect(() => store.append(s.id, entry)).toThrow(/says it is image\/jpeg but its bytes are image\/png/);
  expect(blobCount()).toBe(0);
});

test('a huge image is refused before it is decoded, and nothing is stored', () => {
  const s = store.create();
  const huge = 'A'.repeat(28 * 1024 * 1024);
  expect(() => store.append(s.id, withImage({ data: huge }))).toThrow(/larger than 20\.0 MB/);
  expect(store.get(s.id).messageCount).toBe(0);
  expect(blobCount()).toBe(0);
});

test('an image naming a blob that does not exist is refused', () => {
  const s = store.create();
  expect(() => store.append(s.id, withImage({ blob: 'a'.repeat(64) }))).toThrow(/names a stored image \(aaaaaaaaaaaa…\) that does not exist/);
  expect(store.get(s.id).messageCount).toBe(0);
});

test('an image naming a blob that is stored is kept as it is', () => {
  const s = store.create();
  store.append(s.id, withImage({ data: PNG }));
  const again = store.append(s.id, withImage({ blob: PNG_HASH }));
  expect(JSON.stringify(again)).toContain(PNG_HASH);
  expect(blobCount()).toBe(1);
});

test('an image with both data and a blob, or neither, is refused with a sentence', () => {
  const s = store.create();
  expect(() => store.append(s.id, withImage({ data: PNG, blob: PNG_HASH }))).toThrow(/carries both its data and a stored image's hash/);
  expect(() => store.append(s.id, withImage({}))).toThrow(/carries neither its data nor a stored image's hash/);
});

test('a pi export writes each image as pi stores it (base64 data inline), and importing it back stores the blob again', () => {
  const s = store.create();
  store.append(s.id, withImage({ data: PNG }));
  const text = exportPiSession(store, s.id);
  const line = JSON.parse(text.trim().split('\n')[1]!) as { message: { content: unknown[] } };
  expect(line.message.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG });
  expect(text).not.toContain(PNG_HASH);

  const other = SessionStore.open(join(dir, 'other.db'));
  try {
    const { session } = importPiSession(other, text);
    const [entry] = [...other.allEntries(session.id)];
    expect(JSON.stringify(entry)).toContain(PNG_HASH);
    expect(other.blobs.get(PNG_HASH)?.mimeType).toBe('image/png');
    expect(exportPiSession(other, session.id)).toBe(text);
  } finally {
    other.close();
  }
});

test('a pi file with a fake image imports nothing, and the sentence names the entry', () => {
  const header = JSON.stringify({ type: 'session', version: 3, id: 'pi-fake', timestamp: '2026-01-01T00:00:00.000Z', cwd: '' });
  const fake = Buffer.from('not a picture').toString('base64');
  const line = JSON.stringify({
    type: 'message',
    id: 'e1',
    parentId: null,
    timestamp: '2026-01-01T00:00:01.000Z',
    message: { role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: fake }] },
  });
  expect(() => importPiSession(store, `${header}\n${line}\n`)).toThrow('Image 1 of entry e1 is not a PNG, JPEG, WebP or GIF image');
  expect(store.list()).toEqual([]);
  expect(blobCount()).toBe(0);
});

test("a deleted conversation's images are deleted when the file is next opened; an image another conversation names stays", () => {
  const a = store.create();
  const b = store.create();
  store.append(a.id, withImage({ data: PNG }));
  store.append(b.id, withImage({ data: PNG }));
  const other = Buffer.from(PNG, 'base64');
  other[other.length - 1] = 0x83; // another blob: the same PNG with a changed IEND CRC byte
  store.append(a.id, withImage({ data: other.toString('base64') }));
  expect(blobCount()).toBe(2);
  store.delete(a.id);
  // Kept until the next open: undo may bring the conversation back meanwhile.
  expect(blobCount()).toBe(2);
  store.close();
  store = SessionStore.open(file);
  expect(blobCount()).toBe(1);
  expect(store.blobs.has(PNG_HASH)).toBe(true);
  store.delete(b.id);
  store.close();
  store = SessionStore.open(file);
  expect(blobCount()).toBe(0);
});

test('a file from before the blob references gets them from its entries when migrated, so its images are kept', () => {
  const s = store.create();
  store.append(s.id, withImage({ data: PNG }));
  store.close();
  const db = new Database(file);
  db.exec('DROP TABLE blob_refs');
  db.pragma(`user_version = ${MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE IF NOT EXISTS blob_refs'))}`);
  db.close();
  store = SessionStore.open(file);
  expect(store.schemaVersion).toBe(SCHEMA_VERSION);
  expect(blobCount()).toBe(1);
  store.delete(s.id);
  store.close();
  store = SessionStore.open(file);
  expect(blobCount()).toBe(0);
});

test('undo brings a deleted conversation back with its images, and they stay through the next open', () => {
  const trash = new SessionTrash(store);
  const s = store.create();
  store.append(s.id, withImage({ data: PNG }));
  trash.delete(s.id);
  trash.restore(s.id);
  store.close();
  store = SessionStore.open(file);
  expect(blobCount()).toBe(1);
  expect(JSON.stringify(store.path(s.id))).toContain(PNG_HASH);
});
