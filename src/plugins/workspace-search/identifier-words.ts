/** Words as the index keeps them: letters, digits and `_`, so `snake_case` stays one word beside its parts. */
const WORD = /[\p{L}\p{N}_]+/gu;
/** A word that can have parts: an underscore, a lower-to-upper or letter-digit step, or an acronym before a word. */
const MAY_SPLIT = /_|\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u;

/**
 * The parts of an identifier split on snake_case and camelCase (`parseHTTPResponse` → parse, http, response),
 * lowercased; empty when the word has no parts other than itself. Indexed beside the whole word so a search
 * for `user` finds `getUserName` and one for `getUserName` still ranks the exact identifier first.
 */
export function identifierWords(word: string): string[] {
  if (!MAY_SPLIT.test(word)) return [];
  const parts = word
    .split('_')
    .flatMap((piece) => piece.split(/(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u))
    .filter((part) => part !== '')
    .map((part) => part.toLowerCase());
  return parts.length > 1 ? parts : [];
}

/** Every word of a text, in order (repeats kept). */
export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** The distinct identifier parts of a text: what the index keeps beside a file's words. */
export function identifierPartsOf(text: string, max = 20_000): string[] {
  const seen = new Set<string>();
  const parts = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    if (seen.has(word)) continue;
    seen.add(word);
    for (const part of identifierWords(word)) parts.add(part);
    if (parts.size >= max) break;
  }
  return [...parts];
}
