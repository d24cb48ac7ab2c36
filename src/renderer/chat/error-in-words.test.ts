import { expect, test } from 'vitest';
import { errorInWords } from './error-in-words.ts';

test('an unreachable server is said in words, the technical text kept as details', () => {
  const text =
    'Could not reach Loopback at http://127.0.0.1:18555/v1: fetch failed: connect ECONNREFUSED 127.0.0.1:18555. Check that the server is running and the base URL is right.';
  expect(errorInWords(text)).toEqual({ summary: 'Amber could not reach the server at 127.0.0.1:18555 — is it running?', details: text });
});

test("an HTTP failure keeps its status and advice; the provider's raw body goes to the details", () => {
  const text = 'OpenRouter answered HTTP 401: {"error":"bad key","trace":"x-123"}. Check the API key and its permissions in the provider settings.';
  expect(errorInWords(text)).toEqual({
    summary: 'OpenRouter answered with an error (HTTP 401). Check the API key and its permissions in the provider settings.',
    details: text,
  });
});

test('an error already in words shows as it is, without details', () => {
  expect(errorInWords('No model is chosen for this conversation. Pick a model, then send again.')).toEqual({
    summary: 'No model is chosen for this conversation. Pick a model, then send again.',
    details: null,
  });
});

test("a server's message of several sentences stays in the details; only Amber's advice follows the status", () => {
  const overflow =
    "The conversation is too long for the model's context window. OpenAI-compatible server answered HTTP 400: This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.";
  expect(errorInWords(overflow)).toEqual({
    summary: "The conversation is too long for the model's context window. OpenAI-compatible server answered with an error (HTTP 400).",
    details: overflow,
  });
  const auth =
    'OpenAI answered HTTP 401: Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys. Check the API key and its permissions in the provider settings.';
  expect(errorInWords(auth).summary).toBe('OpenAI answered with an error (HTTP 401). Check the API key and its permissions in the provider settings.');
  const retried = 'Groq answered HTTP 503: Service Unavailable. Try later. (after 3 retries). The provider has a problem on its side; try again later.';
  expect(errorInWords(retried).summary).toBe('Groq answered with an error (HTTP 503). The provider has a problem on its side; try again later.');
});
