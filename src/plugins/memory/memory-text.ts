import { createHash } from 'node:crypto';

// How memory text is compared: one normal form for exact repeats (its hash), one set of words for near
// duplicates and for the full-text queries recall and the store run.

/** Words too common to say what a memory is about. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have i in is it its of on or that the their there this to was were will with ' +
    'we you he she they them our your my me us do does did not no so if then than also just should would can could use uses used ' +
    'now currently instead anymore still actually'
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

/** Most words a restatement may add to an older memory and still be about the same thing. */
const MAX_ADDED_WORDS = 3;

/**
 * How a newer text stands to an older one, by their meaningful words (values — words with digits: versions,
 * ports, dates — counted apart):
 * - `repeat`: it says the same (word similarity at least `near`), or less (all its words are in the older);
 * - `replace`: it says something else about the same subject (similarity at least `subject`, and besides
 *   values at most one word differs each side: "PostgreSQL 14" → "16", "lives in Lisbon" → "in Porto"), or
 *   the same and a little more (the older's words and at most MAX_ADDED_WORDS others);
 * - `distinct`: anything else. Two facts of one pattern about different things ("the billing ledger service
 *   listens on 8100" / "the mail relay service listens on 8101") differ in more than one word each side.
 */
export function compareTexts(older: string, newer: string, thresholds: { near: number; subject: number }): 'repeat' | 'replace' | 'distinct' {
  const similarity = wordSimilarity(older, newer);
  if (similarity >= thresholds.near) return 'repeat';
  if (similarity < thresholds.subject) return 'distinct';
  const a = new Set(meaningfulWords(older));
  const b = new Set(meaningfulWords(newer));
  const onlyA = [...a].filter((w) => !b.has(w) && !isValue(w));
  const onlyB = [...b].filter((w) => !a.has(w) && !isValue(w));
  const valuesDiffer = [...a, ...b].some((w) => isValue(w) && !(a.has(w) && b.has(w)));
  if (onlyB.length === 0 && !valuesDiffer) return 'repeat';
  if (onlyA.length <= 1 && onlyB.length <= 1) return 'replace';
  return onlyA.length === 0 && onlyB.length <= MAX_ADDED_WORDS ? 'replace' : 'distinct';
}

function isValue(word: string): boolean {
  return /\d/.test(word);
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
