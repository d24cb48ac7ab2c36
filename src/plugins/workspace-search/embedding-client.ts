import { z } from 'zod';
import type { EmbeddingConfig } from './embedding-config.ts';

/** How long one embeddings request may take (default). */
export const EMBEDDING_TIMEOUT_MS = 30_000;
/** Bytes of answer allowed per input (a 4,096-dimension vector as JSON floats is about 90 KB), plus 64 KB. */
const BYTES_PER_INPUT = 192 * 1024;

/**
 * The OpenAI embeddings answer, as far as it is read: one vector of finite numbers per input, each with its
 * input's index. JSON cannot say NaN, and a number too big for a double parses as Infinity: both are refused.
 */
export const EmbeddingsResponse = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        // z.number() refuses Infinity (a number too big for a double) and NaN.
        embedding: z.array(z.number()).min(1, 'a vector is empty'),
      }),
    )
    .min(1, 'the answer holds no vectors'),
});

/** A failure of the endpoint, as a sentence the Settings row and the tool's note show. `retry` is false when only a change of settings can help. */
export class EmbeddingFailure extends Error {
  readonly retry: boolean;
  constructor(message: string, retry = true) {
    super(message);
    this.name = 'EmbeddingFailure';
    this.retry = retry;
  }
}

export interface EmbeddingClientOptions {
  /** Default EMBEDDING_TIMEOUT_MS. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** Reads a body up to `max` bytes; past that it stops reading and refuses. */
async function readCapped(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new EmbeddingFailure(`The embeddings endpoint's answer was over ${Math.round(max / 1024)} KB, more than vectors for this request can take.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const clip = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
};

/**
 * Talks to an OpenAI-compatible embeddings endpoint (`POST <baseUrl>/embeddings`): every answer is size-capped,
 * timed out and checked (one finite, non-zero vector per input, all of one length, the configured one when
 * dimensions are set) before a vector is used; anything else is an EmbeddingFailure saying what went wrong.
 */
export class EmbeddingClient {
  readonly config: EmbeddingConfig;
  readonly #timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch;

  constructor(config: EmbeddingConfig, options: EmbeddingClientOptions = {}) {
    this.config = config;
    this.#timeoutMs = options.timeoutMs ?? EMBEDDING_TIMEOUT_MS;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** One vector per input, in the inputs' order. Rejects only with an EmbeddingFailure (or the abort of `signal`). */
  async embed(inputs: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const { baseUrl, model, apiKey, dimensions } = this.config;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    let body: string;
    try {
      response = await this.#fetch(`${baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model, input: inputs, encoding_format: 'float', ...(dimensions ? { dimensions } : {}) }),
        signal: both,
        redirect: 'error',
      });
      body = await readCapped(response, 64 * 1024 + BYTES_PER_INPUT * inputs.length);
    } catch (error) {
      if (error instanceof EmbeddingFailure) throw error;
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) {
        const limit = this.#timeoutMs < 1000 ? `${this.#timeoutMs} ms` : `${Math.round(this.#timeoutMs / 1000)} s`;
        throw new EmbeddingFailure(`The embeddings endpoint did not answer within ${limit}.`);
      }
      const why = (error as { cause?: { code?: string; message?: string } }).cause;
      const cause = why?.code ?? why?.message ?? (error as Error).message;
      throw new EmbeddingFailure(`The embeddings endpoint at ${baseUrl} could not be reached (${cause}).`);
    }
    if (!response.ok) {
      const refused = response.status === 401 || response.status === 403;
      const detail = clip(body);
      throw new EmbeddingFailure(
        refused
          ? `The embeddings endpoint refused the request (${response.status}): check the API key.${detail ? ` It said: ${detail}` : ''}`
          : `The embeddings endpoint answered ${response.status}${detail ? `: ${detail}` : '.'}`,
        !(refused || response.status === 404 || response.status === 400),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new EmbeddingFailure(`The embeddings endpoint's answer is not JSON: ${clip(body) || '(empty)'}`);
    }
    const parsed = EmbeddingsResponse.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EmbeddingFailure(
        `The embeddings endpoint's answer is not an embeddings response (${issue?.path.join('.') || 'the answer'}: ${issue?.message}).`,
      );
    }
    const vectors: (Float32Array | undefined)[] = Array.from({ length: inputs.length }, () => undefined);
    for (const item of parsed.data.data) {
      if (item.index >= inputs.length || vectors[item.index]) {
        throw new EmbeddingFailure(`The embeddings endpoint's answer has a vector for input ${item.index}, which was not asked for or came twice.`);
      }
      vectors[item.index] = Float32Array.from(item.embedding);
    }
    const missing = vectors.findIndex((v) => v === undefined);
    if (missing !== -1 || parsed.data.data.length !== inputs.length) {
      throw new EmbeddingFailure(`The embeddings endpoint answered ${parsed.data.data.length} vectors for ${inputs.length} inputs.`);
    }
    const length = dimensions ?? vectors[0]!.length;
    for (const vector of vectors as Float32Array[]) {
      if (vector.length !== length) {
        throw new EmbeddingFailure(
          dimensions
            ? `The embeddings endpoint answered vectors of ${vector.length} dimensions, not the ${dimensions} set in Settings.`
            : `The embeddings endpoint answered vectors of different lengths (${length} and ${vector.length}).`,
          false,
        );
      }
      if (vector.every((x) => x === 0) || vector.some((x) => !Number.isFinite(x))) {
        throw new EmbeddingFailure('The embeddings endpoint answered a vector of zeros or one too big for 32-bit floats, which cannot be compared.');
      }
    }
    return vectors as Float32Array[];
  }
}
