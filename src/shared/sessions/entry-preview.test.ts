import { expect, test } from 'vitest';
import type { Entry } from './entry.ts';
import { entryPreview } from './entry-preview.ts';

const said = (content: string): Entry => ({ type: 'message', id: 'e1', parentId: null, timestamp: 't', message: { role: 'user', content } });
/** The preview's definition: white space runs made one space, trimmed, then clipped to 120 with an ellipsis. */
const defined = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
};

test('a preview is the text on one line, clipped at 120 characters with an ellipsis', () => {
  expect(entryPreview(said('  hello\n\n  world\t '))).toBe('hello world');
  expect(entryPreview(said(`${'a'.repeat(119)} b`))).toBe(`${'a'.repeat(119)}…`);
  expect(entryPreview(said(`${'a'.repeat(120)}   \n `))).toBe('a'.repeat(120));
  expect(entryPreview(said(`\u00a0\u2028${'x'.repeat(200)}`))).toBe(`${'x'.repeat(119)}…`);
  expect(entryPreview(said(''))).toBe('');
  // White space past the first part read: whether more words follow decides the ellipsis.
  expect(entryPreview(said(`${'a'.repeat(120)}${' '.repeat(1000)}`))).toBe('a'.repeat(120));
  expect(entryPreview(said(`${'a'.repeat(120)}${' '.repeat(1000)}b`))).toBe(`${'a'.repeat(119)}…`);
});

test('the preview, read from as much of the text as it needs, agrees with its definition on any mix of words and white space', () => {
  const pieces = ['a', 'bc ', ' ', '\n', '\t\t', '\u00a0', '\u3000', '😀', 'x'.repeat(50), ' '.repeat(30), '\ufeff', ' \n'.repeat(400), 'y'.repeat(130)];
  let seed = 11;
  for (let i = 0; i < 2000; i++) {
    let text = '';
    const n = Math.floor(((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296) * 14);
    for (let k = 0; k < n; k++) text += pieces[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % pieces.length];
    expect(entryPreview(said(text))).toBe(defined(text));
  }
});
