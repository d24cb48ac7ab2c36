import { describe, expect, test } from 'vitest';
import type { MessageDelta } from '../../shared/agent/index.ts';
import type { ModelInfo, ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import type { AssistantMessage } from '../../shared/sessions/index.ts';
import { streamReply } from './stream-reply.ts';

const model: ModelInfo = { id: 'm', contextWindow: 1000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const request: ProviderRequest = { model, systemPrompt: '', messages: [], tools: [] };

function play(events: ProviderEvent[], then?: () => Promise<void>): StreamFn {
  return async function* () {
    yield* events;
    if (then) await then();
  };
}

async function run(stream: StreamFn, signal = new AbortController().signal) {
  const deltas: MessageDelta[] = [];
  const reply = await streamReply({ stream, request, signal, provider: 'p', clock: () => 42, onDelta: (d) => deltas.push(d) });
  return { reply, deltas };
}

const done = (message: Partial<AssistantMessage>): ProviderEvent => ({
  type: 'done',
  message: { role: 'assistant', content: [], stopReason: 'stop', ...message } as AssistantMessage,
});

const throwing: StreamFn = () => {
  throw new Error('not even a stream');
};

describe('stream reply', () => {
  test('passes deltas on and takes the final message, filling provider, model and timestamp', async () => {
    const { reply, deltas } = await run(
      play([
        { type: 'start' },
        { type: 'thinking_delta', delta: 'hmm' },
        { type: 'text_delta', delta: 'Hi' },
        { type: 'toolcall_delta', index: 0, id: 'c1', name: 'echo', argumentsDelta: '{"a"' },
        { type: 'toolcall_delta', index: 0, argumentsDelta: ':1}' },
        done({ content: [{ type: 'text', text: 'Hi' }] }),
      ]),
    );
    expect(reply.errorKind).toBeNull();
    expect(reply.message).toMatchObject({ provider: 'p', model: 'm', timestamp: 42, stopReason: 'stop' });
    expect(deltas.map((d) => d.kind)).toEqual(['thinking', 'text', 'toolcall', 'toolcall']);
    expect(deltas[2]).toEqual({ kind: 'toolcall', index: 0, id: 'c1', name: 'echo', argumentsDelta: '{"a"' });
  });

  test('an abort ends at once with the partial message, even if the provider ignores the signal', async () => {
    const controller = new AbortController();
    let streaming: (() => void) | undefined;
    const isStreaming = new Promise<void>((res) => (streaming = res));
    const stream = play(
      [
        { type: 'text_delta', delta: 'Partial ' },
        { type: 'text_delta', delta: 'text' },
        { type: 'toolcall_delta', index: 0, id: 'c1', name: 'write', argumentsDelta: '{"path": "a.t' },
      ],
      () => {
        streaming?.();
        return new Promise<void>(() => {});
      },
    );
    const pending = run(stream, controller.signal);
    await isStreaming;
    controller.abort();
    const { reply } = await pending;
    expect(reply.errorKind).toBe('aborted');
    expect(reply.message).toMatchObject({
      stopReason: 'aborted',
      content: [
        { type: 'text', text: 'Partial text' },
        { type: 'toolCall', id: 'c1', name: 'write', arguments: {} },
      ],
    });
  });

  test('an error event is an error reply whose stop reason keeps it out of later context', async () => {
    const { reply } = await run(
      play([{ type: 'error', kind: 'rate_limit', message: { role: 'assistant', content: [], stopReason: 'stop', errorMessage: 'Slow down.' } }]),
    );
    expect(reply).toMatchObject({ errorKind: 'rate_limit', message: { stopReason: 'error', errorMessage: 'Slow down.' } });
  });

  test('a stream that ends without a final event, throws, or sends a malformed message is an error reply', async () => {
    expect((await run(play([{ type: 'text_delta', delta: 'x' }]))).reply).toMatchObject({
      errorKind: 'bad_stream',
      message: { stopReason: 'error', content: [{ type: 'text', text: 'x' }] },
    });
    expect((await run(throwing)).reply).toMatchObject({ errorKind: 'unknown', message: { errorMessage: expect.stringMatching(/not even a stream/) } });
    const malformed = play([{ type: 'done', message: { role: 'assistant', content: 'text' } as unknown as AssistantMessage }]);
    expect((await run(malformed)).reply).toMatchObject({ errorKind: 'bad_stream', message: { stopReason: 'error' } });
  });

  test('a done whose message says error is treated as an error', async () => {
    const { reply } = await run(play([done({ stopReason: 'error', errorMessage: 'Bad key.' })]));
    expect(reply).toMatchObject({ errorKind: 'unknown', message: { stopReason: 'error', errorMessage: 'Bad key.' } });
  });
});
