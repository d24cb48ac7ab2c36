/**
 * What a provider failure's message tells the user to do, after what the server said: the provider dialects
 * write these sentences (provider-common's `httpFailure`), and the window keeps them in an error's first line
 * while the server's own words go to its details (a server's message may have sentences of its own).
 */
export const FAILURE_ADVICE = {
  auth: 'Check the API key and its permissions in the provider settings.',
  quota: "The account's quota is used up; check its plan and billing.",
  rateLimit: 'The provider is rate limiting requests; wait a moment and try again.',
  server: 'The provider has a problem on its side; try again later.',
  notFound: 'Check the base URL and the model id.',
} as const;

const SENTENCES: readonly string[] = Object.values(FAILURE_ADVICE);

/** Splits the advice sentences (FAILURE_ADVICE) off the end of `text`: what is left, and the advice in order. */
export function splitFailureAdvice(text: string): { said: string; advice: string[] } {
  let said = text;
  const advice: string[] = [];
  for (;;) {
    const found = SENTENCES.find((s) => said.endsWith(` ${s}`));
    if (!found) return { said, advice };
    advice.unshift(found);
    said = said.slice(0, -(found.length + 1));
  }
}
