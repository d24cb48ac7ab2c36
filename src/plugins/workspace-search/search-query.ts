import { identifierWords, wordsOf } from './identifier-words.ts';

const MAX_WORDS = 32;

const quoted = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** The query's words, lowercased and distinct: what a text search looks for and what its snippets show. */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(query).map((w) => w.toLowerCase()))].slice(0, MAX_WORDS);
}

/**
 * An FTS5 query for the words of a text search: each word as itself or as all of its identifier parts
 * (`userName` also finds `user_name`), joined by AND (every word) or OR (any); null when the query has no word.
 */
export function wordsQuery(query: string, join: 'AND' | 'OR'): string | null {
  const terms = queryWords(query).map((word) => {
    const parts = identifierWords(word);
    return parts.length ? `(${quoted(word)} OR (${parts.map(quoted).join(' AND ')}))` : quoted(word);
  });
  return terms.length ? terms.join(` ${join} `) : null;
}

/**
 * An FTS5 query over the trigram table for files that hold `fragment` (case-insensitive): the fragment as one
 * phrase, whose trigrams must follow each other. Null under three characters, which trigrams cannot find.
 */
export function gramsQuery(fragment: string): string | null {
  return [...fragment].length < 3 ? null : quoted(fragment);
}
