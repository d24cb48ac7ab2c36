import type { ModelInfo, ProviderErrorKind, ProviderEvent } from '../../shared/providers/index.ts';
import type { AssistantMessage, StopReason, ToolCall, Usage } from '../../shared/sessions/index.ts';
import { redactSecret } from './provider-error.ts';

type Part =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature?: string; redacted?: string }
  | { kind: 'tool'; ordinal: number; id: string; name: string; args: string };

export type ToolPart = Extract<Part, { kind: 'tool' }>;
export type TextPart = Extract<Part, { kind: 'text' }>;
export type ThinkingPart = Extract<Part, { kind: 'thinking' }>;

export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens?: number;
}

/** The token counts alone, for a model whose prices are not known. */
export function usageTokens(tokens: TokenCounts): Usage {
  return {
    input: tokens.input,
    output: tokens.output,
    cacheRead: tokens.cacheRead,
    cacheWrite: tokens.cacheWrite,
    totalTokens: tokens.totalTokens ?? tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite,
  };
}

/** Dollars for the tokens at the model's prices (US dollars per million tokens). */
export function usageWithCost(tokens: TokenCounts, pricing: ModelInfo['pricing']): Usage {
  const input = (tokens.input * pricing.input) / 1e6;
  const output = (tokens.output * pricing.output) / 1e6;
  const cacheRead = (tokens.cacheRead * pricing.cacheRead) / 1e6;
  const cacheWrite = (tokens.cacheWrite * pricing.cacheWrite) / 1e6;
  return {
    input: tokens.input,
    output: tokens.output,
    cacheRead: tokens.cacheRead,
    cacheWrite: tokens.cacheWrite,
    totalTokens: tokens.totalTokens ?? tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite,
    cost: { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite },
  };
}

/** Parses streamed tool arguments; what is not a JSON object becomes `{}` with the raw text kept beside it. */
export function parseToolArguments(raw: string): { arguments: Record<string, unknown>; rawArguments?: string } {
  if (raw.trim() === '') return { arguments: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { arguments: parsed as Record<string, unknown> };
  } catch {
    // fall through: the model sent arguments that are not JSON
  }
  return { arguments: {}, rawArguments: raw };
}

/**
 * Accumulates one assistant reply from deltas in arrival order and produces the final message. Text and
 * thinking deltas extend the last part of their kind when it is the newest part; tool calls are found by
 * a dialect-chosen key (OpenAI's tool index, Anthropic's block index) and numbered by arrival.
 */
export class AssistantMessageBuilder {
  readonly parts: Part[] = [];
  private readonly toolsByKey = new Map<string | number, ToolPart>();
  private toolCount = 0;
  private tokens: TokenCounts | undefined;
  stopReason: StopReason = 'stop';
  private readonly model: ModelInfo;
  private readonly provider: string;
  private readonly timestamp: number;
  private readonly newId: () => string;

  constructor(options: { model: ModelInfo; provider: string; timestamp: number; newId: () => string }) {
    this.model = options.model;
    this.provider = options.provider;
    this.timestamp = options.timestamp;
    this.newId = options.newId;
  }

  text(delta: string, part?: TextPart): ProviderEvent {
    const target = part ?? this.tail('text');
    target.text += delta;
    return { type: 'text_delta', delta };
  }

  thinking(delta: string, part?: ThinkingPart): ProviderEvent {
    const target = part ?? this.tail('thinking');
    target.text += delta;
    return { type: 'thinking_delta', delta };
  }

  newText(): TextPart {
    const part: TextPart = { kind: 'text', text: '' };
    this.parts.push(part);
    return part;
  }

  newThinking(): ThinkingPart {
    const part: ThinkingPart = { kind: 'thinking', text: '' };
    this.parts.push(part);
    return part;
  }

  tool(key: string | number): ToolPart | undefined {
    return this.toolsByKey.get(key);
  }

  /** Opens a tool call under `key`; a later call with the same key starts a new one. */
  openTool(key: string | number, id: string | undefined, name: string | undefined): ToolPart {
    const part: ToolPart = { kind: 'tool', ordinal: this.toolCount++, id: id || this.newId(), name: name ?? '', args: '' };
    this.parts.push(part);
    this.toolsByKey.set(key, part);
    return part;
  }

  toolDelta(part: ToolPart, argumentsDelta: string, announce: { id?: string; name?: string } = {}): ProviderEvent {
    part.args += argumentsDelta;
    return { type: 'toolcall_delta', index: part.ordinal, ...announce, argumentsDelta };
  }

  get hasToolCalls(): boolean {
    return this.toolCount > 0;
  }

  setTokens(tokens: Partial<TokenCounts>): void {
    const prev = this.tokens ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    this.tokens = { ...prev, ...Object.fromEntries(Object.entries(tokens).filter(([, v]) => typeof v === 'number' && Number.isFinite(v))) };
  }

  message(stopReason: StopReason = this.stopReason, errorMessage?: string): AssistantMessage {
    const content: AssistantMessage['content'] = [];
    for (const part of this.parts) {
      if (part.kind === 'text') {
        if (part.text !== '') content.push({ type: 'text', text: part.text });
      } else if (part.kind === 'thinking') {
        if (part.text !== '' || part.redacted !== undefined) {
          content.push({
            type: 'thinking',
            thinking: part.text,
            ...(part.signature ? { thinkingSignature: part.signature } : {}),
            ...(part.redacted !== undefined ? { redacted: true, thinkingSignature: part.redacted } : {}),
          });
        }
      } else {
        const call: ToolCall = { type: 'toolCall', id: part.id, name: part.name, ...parseToolArguments(part.args) };
        content.push(call);
      }
    }
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      provider: this.provider,
      model: this.model.id,
      stopReason,
      timestamp: this.timestamp,
    };
    // A model nobody prices gets token counts without a cost: unknown, not $0.00.
    if (this.tokens) message.usage = this.model.priced === false ? usageTokens(this.tokens) : usageWithCost(this.tokens, this.model.pricing);
    if (errorMessage !== undefined) message.errorMessage = errorMessage;
    return message;
  }

  /** The final event of a successful stream: a reply with tool calls always stops for tool use. */
  done(): ProviderEvent {
    const reason = this.hasToolCalls && this.stopReason === 'stop' ? 'toolUse' : this.stopReason;
    return { type: 'done', message: this.message(reason) };
  }

  /** The final event of a failed stream; the partial reply is kept and the key is never in the words. */
  error(kind: ProviderErrorKind, errorMessage: string, apiKey: string | undefined): ProviderEvent {
    return { type: 'error', kind, message: this.message(kind === 'aborted' ? 'aborted' : 'error', redactSecret(errorMessage, apiKey)) };
  }

  private tail<K extends 'text' | 'thinking'>(kind: K): Extract<Part, { kind: K }> {
    const last = this.parts.at(-1);
    if (last && last.kind === kind) return last as Extract<Part, { kind: K }>;
    const part = (kind === 'text' ? { kind: 'text', text: '' } : { kind: 'thinking', text: '' }) as Extract<Part, { kind: K }>;
    this.parts.push(part);
    return part;
  }
}
