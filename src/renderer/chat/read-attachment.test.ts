import { expect, test } from 'vitest';
import { attachmentKind, refusal } from './read-attachment.ts';
import { fitWithin } from './scale-image.ts';

test('a file is attached as an image (PNG, JPEG, WebP, GIF), as text (a text type or a known text extension), or not at all', () => {
  expect(attachmentKind('a.png', 'image/png')).toBe('image');
  expect(attachmentKind('a.gif', 'image/gif')).toBe('image');
  expect(attachmentKind('notes.md', 'text/markdown')).toBe('text');
  expect(attachmentKind('data.json', 'application/json')).toBe('text');
  expect(attachmentKind('main.rs', '')).toBe('text');
  expect(attachmentKind('logo.svg', 'image/svg+xml')).toBe('text');
  expect(attachmentKind('photo.heic', 'image/heic')).toBeNull();
  expect(attachmentKind('archive.zip', 'application/zip')).toBeNull();
  expect(attachmentKind('program', 'application/octet-stream')).toBeNull();
});

test('a refused file is named with a sentence saying what can be attached', () => {
  expect(refusal('photo.heic', 'image/heic')).toBe('photo.heic is a HEIC image; attach a PNG, JPEG, WebP or GIF instead.');
  expect(refusal('archive.zip', 'application/zip')).toBe('archive.zip is neither an image (PNG, JPEG, WebP, GIF) nor a text file, so it cannot be attached.');
});

test('an image is fitted within the longest edge, keeping its proportions, and never made larger', () => {
  expect(fitWithin(3000, 2000, 1568)).toEqual({ width: 1568, height: 1045 });
  expect(fitWithin(1000, 4000, 1568)).toEqual({ width: 392, height: 1568 });
  expect(fitWithin(640, 480, 1568)).toEqual({ width: 640, height: 480 });
});
