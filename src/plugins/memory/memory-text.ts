import { createHash } from 'node:crypto';

// How memory text is compared: one normal form for exact repeats (its hash), one set of words for near
// duplicates and for the full-text queries recall and the store run.

/** Words too common to say what a memory is about. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have i in is it its of on or that the their there this to was were will with ' +
    'we you he she they them our your my me us do does did not no so if then than also just should would can could use uses used'
  ).split(' '),
);

/** Lower case, single spaces, no trailing punctuation: what an exact repeat shares. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?;,:\s]+$/u, '');
}

export function contentHash(text: string): string {
  return createHash('sha256').update(normaliseText(text)).digest('hex');
}

/** The words of a text that carry meaning (letters and digits, stop words left out), in order of appearance, each once. */
export function meaningfulWords(text: string): string[] {
  const words = normaliseText(text).match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 1 && !STOP_WORDS.has(w)))];
}

/** Jaccard similarity of the two texts' meaningful words: 1 for the same words, 0 for none shared. */
export function wordSimilarity(a: string, b: string): number {
  const x = new Set(meaningfulWords(a));
  const y = new Set(meaningfulWords(b));
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

/**
 * An FTS5 query matching any of the words (each quoted, so no word is read as an operator), or null when
 * the text has none. At most `maxWords`, the first ones: a long prompt's opening says what it is about.
 */
export function anyWordQuery(text: string, maxWords = 64): string | null {
  const words = meaningfulWords(text).slice(0, maxWords);
  return words.length === 0 ? null : words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ');
}

/** About four characters a token, as the agent counts. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
