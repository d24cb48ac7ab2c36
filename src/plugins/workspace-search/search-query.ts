import { identifierWords, wordsOf } from './identifier-words.ts';

const MAX_WORDS = 32;
const MAX_GRAMS = 32;

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
 * An FTS5 query over the trigram table for files that may hold `fragment`: every trigram of it (at most 32,
 * spread over it), so the match is a superset that an exact check narrows. Null under three characters.
 */
export function gramsQuery(fragment: string): string | null {
  const chars = [...fragment.toLowerCase()];
  if (chars.length < 3) return null;
  const grams = [...new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join('')))];
  const step = Math.max(1, grams.length / MAX_GRAMS);
  const picked = new Set<string>();
  for (let i = 0; i < grams.length && picked.size < MAX_GRAMS; i += step) picked.add(grams[Math.floor(i)]!);
  picked.add(grams[grams.length - 1]!);
  return [...picked].map(quoted).join(' AND ');
}
