import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingClient, EmbeddingFailure, embeddingModelKey, readEmbeddingConfig } from '../../src/plugins/workspace-search/index.ts';
import { conceptVector, type LoopbackEmbeddings, NATURAL_DIMENSIONS, startLoopbackEmbeddings } from '../fixtures/loopback-embeddings.ts';

let server: LoopbackEmbeddings;
beforeAll(async () => {
  server = await startLoopbackEmbeddings();
});
afterAll(() => server.close());
beforeEach(() => {
  server.behaviour = 'ok';
  server.requests.length = 0;
});

const client = (extra: { dimensions?: number; timeoutMs?: number } = {}) =>
  new EmbeddingClient(
    { baseUrl: server.url, model: 'concepts', apiKey: 'k-123', ...(extra.dimensions ? { dimensions: extra.dimensions } : {}) },
    { timeoutMs: extra.timeoutMs ?? 5000 },
  );

async function failure(promise: Promise<unknown>): Promise<EmbeddingFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EmbeddingFailure);
  return error as EmbeddingFailure;
}

describe('the embeddings client', () => {
  it('sends the model, the inputs, the key and the dimensions, and gives one vector per input in order', async () => {
    const vectors = await client().embed(['send the invoice', 'parse a token']);
    expect(vectors.map((v) => [...v].map((x) => Math.round(x * 1000)))).toEqual(
      ['send the invoice', 'parse a token'].map((t) => conceptVector(t).map((x) => Math.round(x * 1000))),
    );
    expect(server.requests).toEqual([{ model: 'concepts', inputs: ['send the invoice', 'parse a token'], dimensions: null, authorization: 'Bearer k-123' }]);
    const shorter = await client({ dimensions: 4 }).embed(['invoice']);
    expect(shorter[0]!.length).toBe(4);
    expect(server.requests[1]!.dimensions).toBe(4);
  });

  it('refuses every broken or hostile answer with a sentence, and says which can be retried', async () => {
    const cases: [typeof server.behaviour, RegExp, boolean][] = [
      ['status500', /answered 500: .*overloaded/, true],
      ['status401', /refused the request \(401\): check the API key/, false],
      ['nan', /not JSON/, true],
      ['infinite', /not an embeddings response \(data\.0\.embedding\.9: .*received Infinity\)/, true],
      ['missingVector', /answered 1 vectors for 2 inputs/, true],
      ['mixedDimensions', /vectors of different lengths \(9 and 10\)/, false],
      ['notJson', /not JSON: <html>Gateway error<\/html>/, true],
      ['zeros', /a vector of zeros/, true],
      ['huge', /answer was over \d+ KB/, true],
    ];
    for (const [behaviour, message, retry] of cases) {
      server.behaviour = behaviour;
      const error = await failure(client().embed(['invoice', 'login']));
      expect(error.message, behaviour).toMatch(message);
      expect(error.retry, behaviour).toBe(retry);
    }
    server.behaviour = 'wrongDimensions';
    expect((await failure(client({ dimensions: 4 }).embed(['invoice']))).message).toBe(
      'The embeddings endpoint answered vectors of 7 dimensions, not the 4 set in Settings.',
    );
  });

  it('gives up on a slow endpoint at its time limit, and on one that cannot be reached', async () => {
    server.behaviour = 'slow';
    const started = Date.now();
    expect((await failure(client({ timeoutMs: 300 }).embed(['invoice']))).message).toBe('The embeddings endpoint did not answer within 300 ms.');
    expect(Date.now() - started).toBeLessThan(3000);
    const closed = await startLoopbackEmbeddings();
    await closed.close();
    const gone = new EmbeddingClient({ baseUrl: closed.url, model: 'm' });
    expect((await failure(gone.embed(['x']))).message).toBe(`The embeddings endpoint at ${closed.url} could not be reached (ECONNREFUSED).`);
  });

  it('stops at once when its caller aborts', async () => {
    server.behaviour = 'slow';
    const abort = new AbortController();
    const call = client().embed(['invoice'], abort.signal);
    abort.abort(new Error('closed'));
    await expect(call).rejects.toThrow('closed');
  });
});

describe('the embeddings settings', () => {
  it('are off when nothing is set, and read a base URL, model, key and dimensions', () => {
    expect(readEmbeddingConfig({})).toEqual({ config: null, problem: null });
    expect(readEmbeddingConfig({ embeddings: { baseUrl: '', model: '' } })).toEqual({ config: null, problem: null });
    expect(readEmbeddingConfig({ dataDir: '/x', embeddings: { baseUrl: 'http://localhost:11434/v1/', model: 'nomic-embed-text', dimensions: 256 } })).toEqual({
      config: { baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 256 },
      problem: null,
    });
    expect(NATURAL_DIMENSIONS).toBe(9);
  });

  it('refuse half a setting, a URL that is not http(s), a bad dimension and a group that is not one, saying why', () => {
    expect(readEmbeddingConfig({ embeddings: { baseUrl: 'http://localhost:1/v1' } }).problem).toMatch(
      /needs both a base URL and a model.*only the base URL is set/,
    );
    expect(readEmbeddingConfig({ embeddings: { model: 'm' } }).problem).toMatch(/only the model is set/);
    expect(readEmbeddingConfig({ embeddings: { baseUrl: 'file:///etc/passwd', model: 'm' } }).problem).toMatch(
      /'baseUrl' cannot be used: the base URL must be an http/,
    );
    expect(readEmbeddingConfig({ embeddings: { baseUrl: 'http://h/v1', model: 'm', dimensions: -3 } }).problem).toMatch(/'dimensions' cannot be used/);
    expect(readEmbeddingConfig({ embeddings: { baseUrl: 'http://h/v1', model: 'm', dimensions: 1e9 } }).config).toBeNull();
    expect(readEmbeddingConfig({ embeddings: { baseUrl: 'http://h/v1', model: 'x'.repeat(201) } }).problem).toMatch(/longer than 200/);
    expect(readEmbeddingConfig({ embeddings: 'http://h/v1' }).problem).toBe('The embeddings settings are not a group of settings.');
    expect(readEmbeddingConfig({ embeddings: ['x'] }).config).toBeNull();
  });

  it('name the vectors by endpoint, model and dimensions, so a change of any makes them again', () => {
    const base = { baseUrl: 'http://h/v1', model: 'a' };
    const keys = new Set([
      embeddingModelKey(base),
      embeddingModelKey({ ...base, model: 'b' }),
      embeddingModelKey({ ...base, dimensions: 8 }),
      embeddingModelKey({ ...base, baseUrl: 'http://g/v1' }),
    ]);
    expect(keys.size).toBe(4);
    expect(embeddingModelKey({ ...base, apiKey: 'other' })).toBe(embeddingModelKey(base));
  });
});
