import type { EventSourceMessage } from 'eventsource-parser';
import type { AbortSignalLike, ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import type { StopReason } from '../../shared/sessions/index.ts';
import {
  AssistantMessageBuilder,
  joinUrl,
  NO_EVENTS,
  parseEventJson,
  resolveSeams,
  runProviderStream,
  streamErrorFailure,
  StreamFailure,
  type ProviderConfig,
  type ProviderSeams,
  type ResolvedSeams,
  type TextPart,
  type ThinkingPart,
  type TokenCounts,
  type ToolPart,
} from '../provider-common/index.ts';
import { anthropicRequestBytes } from './anthropic-request-body.ts';

type Json = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
const LABEL = 'Anthropic';

const STOP: Record<string, StopReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'toolUse',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
};

/** Token counts from an Anthropic usage object; fields absent from a message_delta keep their earlier value. */
export function anthropicTokens(usage: unknown): Partial<TokenCounts> {
  const u = obj(usage);
  const out: Partial<TokenCounts> = {};
  const input = num(u.input_tokens);
  const output = num(u.output_tokens);
  const cacheRead = num(u.cache_read_input_tokens);
  const cacheWrite = num(u.cache_creation_input_tokens);
  if (input !== undefined) out.input = input;
  if (output !== undefined) out.output = output;
  if (cacheRead !== undefined) out.cacheRead = cacheRead;
  if (cacheWrite !== undefined) out.cacheWrite = cacheWrite;
  return out;
}

/** Headers for the Messages API; the key goes in x-api-key only. */
export function anthropicHeaders(config: ProviderConfig, accept: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept,
    'anthropic-version': ANTHROPIC_VERSION,
    ...(config.apiKey ? { 'x-api-key': config.apiKey } : {}),
    ...config.headers,
  };
}

export function anthropicConfigProblem(config: ProviderConfig): { kind: 'bad_request' | 'auth'; message: string } | undefined {
  const baseUrl = config.baseUrl || ANTHROPIC_BASE_URL;
  if (!URL.canParse(baseUrl))
    return { kind: 'bad_request', message: `The base URL "${baseUrl}" is not a valid URL; it should look like ${ANTHROPIC_BASE_URL}.` };
  if (!config.apiKey && baseUrl === ANTHROPIC_BASE_URL) return { kind: 'auth', message: 'Add an API key for Anthropic in the provider settings.' };
  return undefined;
}

type Block = { kind: 'text'; part: TextPart } | { kind: 'thinking'; part: ThinkingPart } | { kind: 'tool'; part: ToolPart } | { kind: 'other' };

/** Maps Messages stream events (content blocks by index) onto the builder; one instance per call. */
class AnthropicEventMapper {
  private readonly blocks = new Map<number, Block>();
  private stopped = false;
  private readonly builder: AssistantMessageBuilder;

  constructor(builder: AssistantMessageBuilder) {
    this.builder = builder;
  }

  finished(): boolean {
    return this.stopped;
  }

  onEvent(sse: EventSourceMessage): ProviderEvent[] {
    const data = obj(parseEventJson(LABEL, sse.data));
    const type = typeof data.type === 'string' ? data.type : sse.event;
    switch (type) {
      case 'message_start':
        this.builder.setTokens(anthropicTokens(obj(data.message).usage));
        return NO_EVENTS;
      case 'content_block_start':
        return this.startBlock(num(data.index) ?? 0, obj(data.content_block));
      case 'content_block_delta':
        return this.delta(num(data.index) ?? 0, obj(data.delta));
      case 'message_delta': {
        this.builder.setTokens(anthropicTokens(data.usage));
        this.stop(obj(data.delta).stop_reason);
        return NO_EVENTS;
      }
      case 'message_stop':
        this.stopped = true;
        return NO_EVENTS;
      case 'error': {
        const f = streamErrorFailure(LABEL, data.error ?? data);
        throw new StreamFailure(f.kind, f.message);
      }
      default:
        // ping, content_block_stop and event types added later carry nothing we keep.
        return NO_EVENTS;
    }
  }

  onJson(body: unknown): ProviderEvent[] {
    const b = obj(body);
    if (b.type === 'error') {
      const f = streamErrorFailure(LABEL, b.error);
      throw new StreamFailure(f.kind, f.message);
    }
    const events: ProviderEvent[] = [];
    this.builder.setTokens(anthropicTokens(b.usage));
    (Array.isArray(b.content) ? b.content : []).forEach((raw, index) => {
      const block = obj(raw);
      events.push(...this.startBlock(index, block));
      if (block.type === 'text' && typeof block.text === 'string') events.push(...this.delta(index, { type: 'text_delta', text: block.text }));
      if (block.type === 'thinking' && typeof block.thinking === 'string') {
        events.push(...this.delta(index, { type: 'thinking_delta', thinking: block.thinking }));
        this.delta(index, { type: 'signature_delta', signature: block.signature });
      }
      if (block.type === 'tool_use') events.push(...this.delta(index, { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) }));
    });
    this.stop(b.stop_reason);
    this.stopped = true;
    return events;
  }

  private stop(reason: unknown): void {
    if (typeof reason !== 'string') return;
    if (reason === 'refusal')
      throw new StreamFailure('blocked', `${LABEL} declined to continue this reply (refusal). Rephrase the request or try another model.`);
    this.builder.stopReason = STOP[reason] ?? 'stop';
  }

  private startBlock(index: number, block: Json): ProviderEvent[] {
    if (block.type === 'text') {
      const part = this.builder.newText();
      this.blocks.set(index, { kind: 'text', part });
      return NO_EVENTS;
    }
    if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const part = this.builder.newThinking();
      if (block.type === 'redacted_thinking' && typeof block.data === 'string') part.redacted = block.data;
      this.blocks.set(index, { kind: 'thinking', part });
      return NO_EVENTS;
    }
    if (block.type === 'tool_use') {
      const part = this.builder.openTool(index, typeof block.id === 'string' ? block.id : undefined, typeof block.name === 'string' ? block.name : undefined);
      this.blocks.set(index, { kind: 'tool', part });
      return [this.builder.toolDelta(part, '', { id: part.id, name: part.name })];
    }
    this.blocks.set(index, { kind: 'other' });
    return NO_EVENTS;
  }

  private delta(index: number, delta: Json): ProviderEvent[] {
    const block = this.blocks.get(index);
    if (!block) throw new StreamFailure('bad_stream', `${LABEL} sent a content delta for block ${index} before starting it. Try again.`);
    if (delta.type === 'text_delta' && block.kind === 'text' && typeof delta.text === 'string') return [this.builder.text(delta.text, block.part)];
    if (delta.type === 'thinking_delta' && block.kind === 'thinking' && typeof delta.thinking === 'string')
      return [this.builder.thinking(delta.thinking, block.part)];
    if (delta.type === 'signature_delta' && block.kind === 'thinking' && typeof delta.signature === 'string') {
      block.part.signature = (block.part.signature ?? '') + delta.signature;
      return NO_EVENTS;
    }
    if (delta.type === 'input_json_delta' && block.kind === 'tool' && typeof delta.partial_json === 'string' && delta.partial_json !== '') {
      return [this.builder.toolDelta(block.part, delta.partial_json)];
    }
    return NO_EVENTS;
  }
}

async function* failBeforeRequest(builder: AssistantMessageBuilder, problem: { kind: 'bad_request' | 'auth'; message: string }): AsyncGenerator<ProviderEvent> {
  yield { type: 'start' };
  yield builder.error(problem.kind, problem.message, undefined);
}

function streamWith(config: ProviderConfig, seams: ResolvedSeams, request: ProviderRequest, signal: AbortSignalLike): AsyncIterable<ProviderEvent> {
  const builder = new AssistantMessageBuilder({ model: request.model, provider: 'anthropic', timestamp: seams.now(), newId: seams.newId });
  const problem = anthropicConfigProblem(config);
  if (problem) return failBeforeRequest(builder, problem);
  const mapper = new AnthropicEventMapper(builder);
  return runProviderStream(
    {
      label: LABEL,
      apiKey: config.apiKey,
      url: joinUrl(config.baseUrl || ANTHROPIC_BASE_URL, 'v1/messages'),
      init: { method: 'POST', headers: anthropicHeaders(config, 'text/event-stream'), body: anthropicRequestBytes(request) },
      seams,
      builder,
      onEvent: (sse) => mapper.onEvent(sse),
      onJson: (body) => mapper.onJson(body),
      finished: () => mapper.finished(),
      closedCleanly: () => mapper.finished(),
    },
    signal,
  );
}

/**
 * A StreamFn for the Anthropic Messages API. The base URL is the API root without the version, as in the
 * Anthropic SDK (`https://api.anthropic.com`); requests go to `{baseUrl}/v1/messages`.
 */
export function createAnthropicStream(config: ProviderConfig, seams: ProviderSeams = {}): StreamFn {
  const resolved = resolveSeams(seams);
  return (request, signal) => streamWith(config, resolved, request, signal);
}
