import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { anthropicStream, frameText, openAiStream, startProviderServer, type ProviderServer } from '../fixtures/provider-server.ts';

let server: ProviderServer;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await server.close();
});

const post = (path: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: JSON.stringify(body), signal });

describe('the loopback provider server', () => {
  test('answers from a queue, records each request, and says when the queue is empty', async () => {
    server.setScript([{ kind: 'json', body: { a: 1 } }]);
    const next = server.nextRequest();
    const first = await post('/v1/x', { model: 'm' });
    expect(await first.json()).toEqual({ a: 1 });
    const seen = await next;
    expect(seen).toMatchObject({ index: 0, method: 'POST', path: '/v1/x', body: { model: 'm' } });
    expect(seen.headers['x-test']).toBe('yes');
    expect(await seen.outcome).toBe('completed');
    const second = await post('/v1/x', {});
    expect(second.status).toBe(400);
    expect(await second.text()).toMatch(/no scripted reply left for request #1/);
  });

  test('a script function sees the request it answers', async () => {
    server.setScript((req) => ({ kind: 'json', body: { echo: (req.body as { n: number }).n * 2 } }));
    expect(await (await post('/', { n: 21 })).json()).toEqual({ echo: 42 });
  });

  test('streams the frames byte for byte, whole or cut into small writes', async () => {
    const reply = anthropicStream({ text: ['a', 'b'], toolCalls: [{ id: 't', name: 'ls', arguments: { path: '.' } }] });
    const expected = reply.frames.map(frameText).join('');
    server.setScript([reply, { ...reply, chunkBytes: 3 }]);
    const whole = await post('/v1/messages', {});
    expect(whole.headers.get('content-type')).toBe('text/event-stream');
    expect(await whole.text()).toBe(expected);
    expect(await (await post('/v1/messages', {})).text()).toBe(expected);
  });

  test('paces frames at the asked rate', async () => {
    server.setScript(openAiStream({ text: ['1', '2', '3', '4', '5'] }, { pace: { framesPerSecond: 100 } }));
    const t0 = performance.now();
    await (await post('/v1/chat/completions', {})).text();
    // 8 frames (role, 5 texts, finish, [DONE]) ⇒ 7 gaps of 10 ms; timers may round down by a millisecond
    expect(performance.now() - t0).toBeGreaterThanOrEqual(63);
  });

  test('a stalled reply holds until the client goes away, and records that it did', async () => {
    server.setScript(openAiStream({ text: ['a', 'b'] }, { stallAfter: 1 }));
    const controller = new AbortController();
    const res = await post('/v1/chat/completions', {}, controller.signal);
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"role":"assistant"');
    controller.abort();
    expect(await server.requests[0].outcome).toBe('client_closed');
  });

  test('drop closes the connection without an answer', async () => {
    server.setScript({ kind: 'drop' });
    await expect(post('/', {})).rejects.toThrow();
    expect(await server.requests[0].outcome).toBe('server_cut');
  });
});
