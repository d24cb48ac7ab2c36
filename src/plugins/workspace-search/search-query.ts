import { identifierWords, wordsOf } from './identifier-words.ts';

const MAX_WORDS = 32;

const quoted = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** The query's words, lowercased and distinct: what a text search looks for and what its snippets show. */
export function queryWords(query: string): string[] {
  return queryTerms(query).map((t) => t.word);
}

/**
 * The query's distinct words (lowercased), each with its identifier parts, split before lowercasing so that
 * `getUserName` gives get, user and name.
 */
export function queryTerms(query: string): { word: string; parts: string[] }[] {
  const terms = new Map<string, string[]>();
  for (const word of wordsOf(query)) {
    const lower = word.toLowerCase();
    if (!terms.has(lower)) terms.set(lower, identifierWords(word));
    if (terms.size >= MAX_WORDS) break;
  }
  return [...terms].map(([word, parts]) => ({ word, parts }));
}

/**
 * An FTS5 query for the words of a text search: each word as itself or (`withParts`, the default) as all of its
 * identifier parts (`userName` also finds `user_name`), joined by AND (every word) or OR (any); null when the
 * query has no word.
 */
export function wordsQuery(query: string, join: 'AND' | 'OR', withParts = true): string | null {
  const terms = queryTerms(query).map(({ word, parts }) =>
    withParts && parts.length ? `(${quoted(word)} OR (${parts.map(quoted).join(' AND ')}))` : quoted(word),
  );
  return terms.length ? terms.join(` ${join} `) : null;
}

/**
 * An FTS5 query over the trigram table for files that hold `fragment` (case-insensitive): the fragment as one
 * phrase, whose trigrams must follow each other. Null under three characters, which trigrams cannot find.
 */
export function gramsQuery(fragment: string): string | null {
  return [...fragment].length < 3 ? null : quoted(fragment);
}
