import type { MessageDelta } from '../../shared/agent/index.ts';
import type { ProviderErrorKind, ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import { AssistantMessage, type ToolCall } from '../../shared/sessions/index.ts';
import { errorMessage } from '../errors.ts';

export interface StreamedReply {
  message: AssistantMessage;
  /** null for a reply that completed; otherwise why the call failed ('aborted' for a stop). */
  errorKind: ProviderErrorKind | null;
}

export interface StreamReplyInput {
  stream: StreamFn;
  request: ProviderRequest;
  signal: AbortSignal;
  provider: string;
  clock: () => number;
  onDelta(delta: MessageDelta): void;
  /** A provider's `notice` (not part of the reply), for the user. */
  onNotice?(message: string): void;
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'toolCall'; index: number; id: string; name: string; json: string };

/**
 * Consumes one provider stream into one assistant message. Never throws: a stream that throws, ends early
 * or sends a malformed message becomes an error reply; an abort ends at once with the partial message
 * (text, thinking and tool calls so far) marked 'aborted', whether or not the provider notices the signal.
 */
export async function streamReply(input: StreamReplyInput): Promise<StreamedReply> {
  const { signal, request } = input;
  const blocks: Block[] = [];
  const partial = (stopReason: 'aborted' | 'error', errorText: string): AssistantMessage => ({
    role: 'assistant',
    content: blocks.map((b) => (b.type === 'toolCall' ? partialToolCall(b) : b)),
    provider: input.provider,
    model: request.model.id,
    stopReason,
    errorMessage: errorText,
    timestamp: input.clock(),
  });
  const stopped = (): StreamedReply => ({ message: partial('aborted', 'Stopped by the user.'), errorKind: 'aborted' });
  const broken = (text: string, kind: ProviderErrorKind = 'bad_stream'): StreamedReply => ({ message: partial('error', text), errorKind: kind });

  if (signal.aborted) return stopped();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((res) => {
    onAbort = () => res('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  try {
    iterator = input.stream(request, signal)[Symbol.asyncIterator]();
    for (;;) {
      const next = iterator.next();
      next.catch(() => {}); // an abandoned pull must not surface as an unhandled rejection
      const step = await Promise.race([next, aborted]);
      if (step === 'aborted') {
        const it = iterator;
        void Promise.resolve()
          .then(() => it.return?.())
          .catch(() => {});
        return stopped();
      }
      if (step.done) return broken('The provider stream ended without a final message.');
      const event = step.value;
      switch (event.type) {
        case 'start':
          break;
        case 'text_delta': {
          const last = blocks.at(-1);
          if (last?.type === 'text') last.text += event.delta;
          else blocks.push({ type: 'text', text: event.delta });
          input.onDelta({ kind: 'text', text: event.delta });
          break;
        }
        case 'thinking_delta': {
          const last = blocks.at(-1);
          if (last?.type === 'thinking') last.thinking += event.delta;
          else blocks.push({ type: 'thinking', thinking: event.delta });
          input.onDelta({ kind: 'thinking', text: event.delta });
          break;
        }
        case 'toolcall_delta': {
          let block = blocks.find((b): b is Extract<Block, { type: 'toolCall' }> => b.type === 'toolCall' && b.index === event.index);
          if (!block) blocks.push((block = { type: 'toolCall', index: event.index, id: '', name: '', json: '' }));
          if (event.id) block.id = event.id;
          if (event.name) block.name = event.name;
          block.json += event.argumentsDelta;
          const delta: MessageDelta = { kind: 'toolcall', index: event.index, argumentsDelta: event.argumentsDelta };
          if (event.id !== undefined) delta.id = event.id;
          if (event.name !== undefined) delta.name = event.name;
          input.onDelta(delta);
          break;
        }
        case 'notice':
          input.onNotice?.(event.message);
          break;
        case 'done':
        case 'error':
          return finish(event, input);
        default:
          break;
      }
    }
  } catch (e) {
    if (signal.aborted) return stopped();
    return broken(`The provider failed: ${errorMessage(e)}`, 'unknown');
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function finish(event: Extract<ProviderEvent, { type: 'done' | 'error' }>, input: StreamReplyInput): StreamedReply {
  const parsed = AssistantMessage.safeParse(event.message);
  const fallback = (text: string): StreamedReply => ({
    message: {
      role: 'assistant',
      content: [],
      provider: input.provider,
      model: input.request.model.id,
      stopReason: 'error',
      errorMessage: text,
      timestamp: input.clock(),
    },
    errorKind: 'bad_stream',
  });
  if (!parsed.success) return fallback('The provider sent its reply in a shape Amber cannot read.');
  const message: AssistantMessage = { ...parsed.data };
  message.provider ??= input.provider;
  message.model ??= input.request.model.id;
  message.timestamp ??= input.clock();
  if (event.type === 'done') {
    if (message.stopReason === 'error' || message.stopReason === 'aborted') {
      return {
        message: { ...message, errorMessage: message.errorMessage ?? 'The model call failed.' },
        errorKind: message.stopReason === 'aborted' ? 'aborted' : 'unknown',
      };
    }
    return { message, errorKind: null };
  }
  // An error's message never reaches a later context: make sure its stop reason says so.
  const stopReason = event.kind === 'aborted' ? 'aborted' : message.stopReason === 'aborted' ? 'aborted' : 'error';
  return {
    message: { ...message, stopReason, errorMessage: message.errorMessage ?? `The model call failed (${event.kind}).` },
    errorKind: stopReason === 'aborted' ? 'aborted' : event.kind,
  };
}

function partialToolCall(block: Extract<Block, { type: 'toolCall' }>): ToolCall {
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(block.json);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    // partial JSON: the call was cut off; keep it without arguments
  }
  return { type: 'toolCall', id: block.id || `partial-${block.index}`, name: block.name, arguments: args };
}
