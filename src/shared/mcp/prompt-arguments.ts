// How the text after `/mcp.<server>.<prompt>` becomes the prompt's arguments by name: words fill the declared
// arguments in order, `name=value` sets one by name, and words past the last argument join it. A value
// with spaces is quoted ("New York", or city='New York'); a quote inside a word (don't) is just a letter.

/** The words of `text`: split on white space, except inside quotes opened at a word's start or right after `name=`. */
export function promptWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    const opensQuote = (ch === '"' || ch === "'") && (word === null || /^[^=\s]+=$/.test(word));
    if (opensQuote) {
      quote = ch;
      word ??= '';
      continue;
    }
    word = (word ?? '') + ch;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * A prompt's arguments from the text after its name: `key=value` where key is one of its arguments, else
 * the next argument in order; words past the last argument join it. Throws a sentence when the prompt
 * takes no arguments but got some.
 */
export function promptArguments(declared: readonly string[], text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const word of promptWords(text)) {
    const eq = word.indexOf('=');
    const key = eq > 0 ? word.slice(0, eq) : '';
    if (key !== '' && declared.includes(key)) {
      values[key] = word.slice(eq + 1);
      continue;
    }
    const open = declared.find((d) => !(d in values));
    const last = declared.at(-1);
    if (open !== undefined) values[open] = word;
    else if (last !== undefined) values[last] = `${values[last]} ${word}`;
    else throw new Error(`This prompt takes no arguments, but got '${word}'.`);
  }
  return values;
}
