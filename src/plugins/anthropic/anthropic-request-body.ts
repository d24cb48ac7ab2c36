import type { ProviderRequest } from '../../shared/providers/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import { asciiBytes, jsonBytes, KeptByObject, objectBytes } from '../provider-common/index.ts';

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

/**
 * Session messages as Anthropic Messages (see convert): the user's side of consecutive messages (prompts,
 * tool results, notes) shares one user message.
 */
export function toAnthropicMessages(messages: readonly Message[]): Json[] {
  const out: Json[] = [];
  for (const m of messages) {
    const converted = convert(m);
    if (!converted) continue;
    const last = out.at(-1);
    if (converted.role === 'user' && last?.role === 'user') (last.content as Json[]).push(...converted.blocks);
    else out.push({ role: converted.role, content: [...converted.blocks] });
  }
  return out;
}

/** Each message's blocks and their encoded JSON, kept for a frozen message (see provider-common/kept-json.ts). */
const keptMessages = new KeptByObject<Message, { role: 'user' | 'assistant'; blocks: Json[]; bytes: Uint8Array<ArrayBuffer>[] } | null>((m) => {
  const converted = convert(m);
  return converted && { ...converted, bytes: converted.blocks.map(jsonBytes) };
});

/** The encoded JSON of a request's tools, kept for a frozen list (a run sends the same list each turn). */
const keptTools = new KeptByObject<ProviderRequest['tools'], Uint8Array<ArrayBuffer>>((tools) => jsonBytes(anthropicTools(tools)));

/** The system prompt's encoded JSON, kept for the prompt it was made from (a run sends the same one each turn). */
let systemBytes = { prompt: '', bytes: new Uint8Array() };

const COMMA = asciiBytes(',');
const OPEN = asciiBytes('[');
const CLOSE = asciiBytes(']');
const USER_TURN = asciiBytes('{"role":"user","content":[');
const ASSISTANT_TURN = asciiBytes('{"role":"assistant","content":[');
const TURN_END = asciiBytes(']}');

/** The chunks of bytes of the body's `messages`: the kept blocks of each message, the newest user turn's last one marked for the cache. */
function messagesChunks(messages: readonly Message[]): Uint8Array<ArrayBuffer>[] {
  const turns: { role: 'user' | 'assistant'; bytes: Uint8Array<ArrayBuffer>[]; last: Json }[] = [];
  for (const m of messages) {
    const converted = keptMessages.get(m);
    if (!converted) continue;
    const last = turns.at(-1);
    if (converted.role === 'user' && last?.role === 'user') last.bytes.push(...converted.bytes);
    else turns.push({ role: converted.role, bytes: [...converted.bytes], last: converted.blocks.at(-1)! });
    turns.at(-1)!.last = converted.blocks.at(-1)!;
  }
  const lastUser = turns.findLast((t) => t.role === 'user');
  if (lastUser) lastUser.bytes[lastUser.bytes.length - 1] = jsonBytes({ ...lastUser.last, cache_control: EPHEMERAL });
  const chunks: Uint8Array<ArrayBuffer>[] = [OPEN];
  for (const [i, turn] of turns.entries()) {
    if (i > 0) chunks.push(COMMA);
    chunks.push(turn.role === 'user' ? USER_TURN : ASSISTANT_TURN);
    for (const [k, bytes] of turn.bytes.entries()) {
      if (k > 0) chunks.push(COMMA);
      chunks.push(bytes);
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
    if (systemBytes.prompt !== request.systemPrompt) systemBytes = { prompt: request.systemPrompt, bytes: jsonBytes(body.system) };
    kept.set('system', [systemBytes.bytes]);
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
