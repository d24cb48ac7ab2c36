import { expect, test } from 'vitest';
import { byteSize, outputPreview, PREVIEW_CHARS, SHOWN_MAX_CHARS } from './output-preview.ts';

test('a short output is drawn whole, with nothing to show more of', () => {
  expect(outputPreview('one\ntwo')).toMatchObject({ text: 'one\ntwo', folded: false, cut: null });
});

test('many lines fold to the first twelve, or the last twelve while the call runs', () => {
  const log = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
  expect(outputPreview(log)).toMatchObject({ folded: true, showAll: 'Show all 40 lines' });
  expect(outputPreview(log).text.split('\n')).toHaveLength(12);
  expect(outputPreview(log, { running: true }).text.split('\n').at(-1)).toBe('line 40');
  expect(outputPreview(log, { showAll: true }).text).toBe(log);
});

test('one very long line (minified JSON) folds to a preview of characters, and says how large it is', () => {
  const json = JSON.stringify(Array.from({ length: 8000 }, (_, i) => ({ id: i, name: `item-${i}` })));
  expect(json.includes('\n')).toBe(false);
  const folded = outputPreview(json);
  expect(folded.folded).toBe(true);
  expect(folded.text).toBe(`${json.slice(0, PREVIEW_CHARS)}…`);
  expect(folded.showAll).toBe(`Show all (${Math.round(json.length / 1024)} KB)`);
  expect(outputPreview(json, { showAll: true }).text).toBe(json);
});

test('shown whole, an output beyond what is drawn is cut there, and says Copy has the rest', () => {
  const huge = 'x'.repeat(SHOWN_MAX_CHARS + 2048);
  const all = outputPreview(huge, { showAll: true });
  expect(all.text).toHaveLength(SHOWN_MAX_CHARS);
  expect(all.cut).toBe(`2 KB more are not drawn here; Copy takes the whole output (${byteSize(huge)}).`);
});

test('sizes are counted in UTF-8 bytes', () => {
  expect(byteSize('abc')).toBe('3 bytes');
  expect(byteSize('é'.repeat(1024))).toBe('2 KB');
  expect(byteSize('x'.repeat(1536 * 1024))).toBe('1.5 MB');
});
