import type { ProviderRequest } from '../../shared/providers/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import { asciiBytes, jsonBytes, KeptByObject, KeptByText, objectBytes } from '../provider-common/index.ts';

type Json = Record<string, unknown>;

/** Thinking budgets per level, in tokens (Anthropic's minimum is 1024). */
export const THINKING_BUDGETS: Readonly<Record<string, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 16_384, xhigh: 32_000 };
const DEFAULT_MAX_TOKENS = 8192;
const EPHEMERAL = { type: 'ephemeral' } as const;

/** Anthropic tool ids must match ^[a-zA-Z0-9_-]+$; ids from other providers are made to fit, the same way each time. */
export function anthropicToolId(id: string): string {
  const clean = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return clean === '' ? 'toolu_empty' : clean;
}

function blocks(content: unknown): Json[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((c: Json): Json[] => {
    if (c?.type === 'text' && typeof c.text === 'string' && c.text !== '') return [{ type: 'text', text: c.text }];
    if (c?.type === 'image') return [{ type: 'image', source: { type: 'base64', media_type: c.mimeType, data: c.data } }];
    return [];
  });
}

/**
 * One session message as the role and content blocks it adds to an Anthropic request (null when it adds
 * none): tool results become `tool_result` blocks of the user's side, signed thinking goes back as it came,
 * unsigned thinking from other providers is dropped, failed and aborted replies are left out.
 */
function convert(m: Message): { role: 'user' | 'assistant'; blocks: Json[] } | null {
  if (m.role === 'user') {
    const content = blocks(m.content);
    return content.length > 0 ? { role: 'user', blocks: content } : null;
  }
  if (m.role === 'assistant') {
    const a = m as Extract<Message, { role: 'assistant' }>;
    if (a.stopReason === 'error' || a.stopReason === 'aborted') return null;
    const content = a.content.flatMap((c): Json[] => {
      if (c.type === 'text') return c.text === '' ? [] : [{ type: 'text', text: c.text }];
      if (c.type === 'thinking') {
        const signature = typeof c.thinkingSignature === 'string' ? c.thinkingSignature : undefined;
        if (c.redacted === true && signature) return [{ type: 'redacted_thinking', data: signature }];
        return signature ? [{ type: 'thinking', thinking: c.thinking, signature }] : [];
      }
      return [{ type: 'tool_use', id: anthropicToolId(c.id), name: c.name, input: c.arguments }];
    });
    return content.length > 0 ? { role: 'assistant', blocks: content } : null;
  }
  if (m.role === 'toolResult') {
    const r = m as Extract<Message, { role: 'toolResult' }>;
    const content = blocks(r.content);
    const result = {
      type: 'tool_result',
      tool_use_id: anthropicToolId(r.toolCallId),
      content: content.length > 0 ? content : [{ type: 'text', text: '(no output)' }],
      is_error: r.isError,
    };
    return { role: 'user', blocks: [result] };
  }
  if ('content' in m) {
    const content = blocks((m as Json).content);
    return content.length > 0 ? { role: 'user', blocks: content } : null;
  }
  return null;
}

type Converted = { role: 'user' | 'assistant'; blocks: Json[] };

/**
 * The session's messages converted and grouped into Anthropic turns: the user's side of consecutive messages
 * (prompts, tool results, notes) shares one user turn.
 */
function turnsOf<T extends Converted>(messages: readonly Message[], converted: (m: Message) => T | null): { role: T['role']; parts: T[] }[] {
  const turns: { role: T['role']; parts: T[] }[] = [];
  for (const m of messages) {
    const c = converted(m);
    if (!c) continue;
    const last = turns.at(-1);
    if (c.role === 'user' && last?.role === 'user') last.parts.push(c);
    else turns.push({ role: c.role, parts: [c] });
  }
  return turns;
}

/** Session messages as Anthropic Messages (see convert and turnsOf). */
export function toAnthropicMessages(messages: readonly Message[]): Json[] {
  return turnsOf(messages, convert).map((t) => ({ role: t.role, content: t.parts.flatMap((p) => p.blocks) }));
}

/** Each message's blocks and their encoded JSON, kept for a frozen message (see provider-common/kept-json.ts). */
const keptMessages = new KeptByObject<Message, (Converted & { bytes: Uint8Array<ArrayBuffer>[] }) | null>((m) => {
  const converted = convert(m);
  return converted && { ...converted, bytes: converted.blocks.map(jsonBytes) };
});

/** The encoded JSON of a request's tools, kept for a frozen list (a run sends the same list each turn). */
const keptTools = new KeptByObject<ProviderRequest['tools'], Uint8Array<ArrayBuffer>>((tools) => jsonBytes(anthropicTools(tools)));

/** The system prompt's encoded JSON (`system` is the body's member made from it). */
const keptSystem = new KeptByText<Uint8Array<ArrayBuffer>>();

const COMMA = asciiBytes(',');
const OPEN = asciiBytes('[');
const CLOSE = asciiBytes(']');
const USER_TURN = asciiBytes('{"role":"user","content":[');
const ASSISTANT_TURN = asciiBytes('{"role":"assistant","content":[');
const TURN_END = asciiBytes(']}');

/** The chunks of bytes of the body's `messages`: the kept blocks of each message, the newest user turn's last one marked for the cache. */
function messagesChunks(messages: readonly Message[]): Uint8Array<ArrayBuffer>[] {
  const turns = turnsOf(messages, (m) => keptMessages.get(m));
  const lastUser = turns.findLast((t) => t.role === 'user');
  const chunks: Uint8Array<ArrayBuffer>[] = [OPEN];
  for (const [i, turn] of turns.entries()) {
    if (i > 0) chunks.push(COMMA);
    chunks.push(turn.role === 'user' ? USER_TURN : ASSISTANT_TURN);
    const bytes = turn.parts.flatMap((p) => p.bytes);
    if (turn === lastUser) bytes[bytes.length - 1] = jsonBytes({ ...turn.parts.at(-1)!.blocks.at(-1), cache_control: EPHEMERAL });
    for (const [k, b] of bytes.entries()) {
      if (k > 0) chunks.push(COMMA);
      chunks.push(b);
    }
    chunks.push(TURN_END);
  }
  chunks.push(CLOSE);
  return chunks;
}

function anthropicTools(tools: ProviderRequest['tools']): Json[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
}

/**
 * `anthropicRequestBody(request)` as the bytes of its JSON, ASCII only: made from the kept bytes of each frozen
 * message, of the system prompt and of a frozen tool list, so a turn costs its new messages and one copy.
 */
export function anthropicRequestBytes(request: ProviderRequest): Uint8Array<ArrayBuffer> {
  const { body, answerTool } = requestFields(request);
  const kept = new Map([['messages', messagesChunks(request.messages)]]);
  if (request.systemPrompt !== '') {
    kept.set('system', [keptSystem.get(request.systemPrompt, () => jsonBytes(body.system))]);
  }
  // The tools a run sends are kept; a forced answer's tool is added after them.
  if (request.tools.length > 0 && !answerTool) kept.set('tools', [keptTools.get(request.tools)]);
  return objectBytes({ ...body, messages: null }, kept);
}

/** The JSON body of one streaming Messages call. */
export function anthropicRequestBody(request: ProviderRequest): Json {
  const { body } = requestFields(request);
  const messages = toAnthropicMessages(request.messages);
  // Two cache breakpoints (of the four allowed): the system prompt, and the newest user turn, so each turn
  // of a run reads the conversation so far from the prompt cache instead of paying for it again.
  const lastUser = messages.findLast((m) => m.role === 'user');
  const lastBlocks = lastUser && Array.isArray(lastUser.content) ? (lastUser.content as Json[]) : [];
  if (lastBlocks.length > 0) lastBlocks[lastBlocks.length - 1] = { ...lastBlocks[lastBlocks.length - 1], cache_control: EPHEMERAL };
  return { ...body, messages };
}

/** Every field of the body but the messages (`messages` holds their place), and whether a forced answer's tool was added. */
function requestFields(request: ProviderRequest): { body: Json; answerTool: boolean } {
  let maxTokens = request.maxTokens ?? request.model.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const body: Json = { model: request.model.id, max_tokens: maxTokens, stream: true };
  if (request.systemPrompt !== '') body.system = [{ type: 'text', text: request.systemPrompt, cache_control: EPHEMERAL }];
  body.messages = undefined;
  if (request.tools.length > 0) body.tools = anthropicTools(request.tools);
  // An answer that must follow a schema is a call of a tool of that schema that the model is made to make.
  const answer = request.responseSchema;
  if (answer) {
    const tool = { name: answer.name, description: answer.description ?? 'Give your answer.', input_schema: answer.schema };
    body.tools = [...((body.tools as Json[] | undefined) ?? []), tool];
    body.tool_choice = { type: 'tool', name: answer.name };
  }
  // A forced tool call and extended thinking do not go together: an answer to a schema is given without thinking.
  const budget = request.thinkingLevel && !answer ? THINKING_BUDGETS[request.thinkingLevel] : undefined;
  if (budget !== undefined && request.model.reasoning) {
    // max_tokens must exceed the thinking budget; leave room for the answer after the thinking.
    if (maxTokens <= budget) maxTokens = budget + Math.min(DEFAULT_MAX_TOKENS, request.model.maxOutputTokens ?? DEFAULT_MAX_TOKENS);
    if (request.model.maxOutputTokens !== undefined) maxTokens = Math.min(maxTokens, request.model.maxOutputTokens);
    body.max_tokens = maxTokens;
    body.thinking = { type: 'enabled', budget_tokens: Math.max(1024, Math.min(budget, maxTokens - 1024)) };
  }
  return { body, answerTool: answer !== undefined };
}
