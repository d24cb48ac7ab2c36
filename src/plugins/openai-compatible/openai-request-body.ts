import type { ProviderRequest } from '../../shared/providers/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import type { OpenAiCompatiblePreset } from './openai-compatible-presets.ts';

type Json = Record<string, unknown>;

const EFFORT: Record<string, string> = { minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'high' };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: Json) => (c?.type === 'text' && typeof c.text === 'string' ? c.text : c?.type === 'image' ? '[image]' : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function userContent(content: unknown): unknown {
  if (typeof content === 'string' || !Array.isArray(content)) return textOf(content);
  if (!content.some((c: Json) => c?.type === 'image')) return textOf(content);
  return content.flatMap((c: Json): Json[] => {
    if (c?.type === 'text') return [{ type: 'text', text: c.text }];
    if (c?.type === 'image') return [{ type: 'image_url', image_url: { url: `data:${String(c.mimeType)};base64,${String(c.data)}` } }];
    return [];
  });
}

/** One session message in chat-completions form (null when it is left out), and the images a tool result returned. */
interface Converted {
  message: Json | null;
  images: Json[];
}

function imagePart(c: { mimeType?: unknown; data?: unknown }): Json {
  return { type: 'image_url', image_url: { url: `data:${String(c.mimeType)};base64,${String(c.data)}` } };
}

/** One session message in chat-completions form (see walk). */
function convert(m: Message): Converted {
  if (m.role === 'user') return { message: { role: 'user', content: userContent(m.content) }, images: [] };
  if (m.role === 'assistant') {
    const a = m as Extract<Message, { role: 'assistant' }>;
    if (a.stopReason === 'error' || a.stopReason === 'aborted') return { message: null, images: [] };
    const text = a.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
    const calls = a.content.flatMap((c) =>
      c.type === 'toolCall' ? [{ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }] : [],
    );
    if (text === '' && calls.length === 0) return { message: null, images: [] };
    const msg: Json = { role: 'assistant', content: text === '' ? null : text };
    if (calls.length > 0) msg.tool_calls = calls;
    return { message: msg, images: [] };
  }
  if (m.role === 'toolResult') {
    const r = m as Extract<Message, { role: 'toolResult' }>;
    return {
      message: { role: 'tool', tool_call_id: r.toolCallId, content: textOf(r.content) || '(no output)' },
      images: r.content.flatMap((c) => (c.type === 'image' ? [imagePart(c)] : [])),
    };
  }
  const text = 'content' in m ? textOf((m as Json).content) : '';
  return { message: text === '' ? null : { role: 'user', content: text }, images: [] };
}

/**
 * Walks the session messages in chat-completions form: `push` gets each converted message to send,
 * `pushImages` the user message that follows a run of tool results with images. Failed and aborted replies
 * are left out (they are never context); thinking is not sent back; other roles with text content become
 * user messages; a tool message carries text only.
 */
function walk<T>(
  messages: readonly Message[],
  converted: (m: Message) => { message: T | null; images: Json[] },
  push: (message: T) => void,
  pushImages: (message: Json) => void,
): void {
  let toolImages: Json[] = [];
  const flushToolImages = () => {
    if (toolImages.length === 0) return;
    pushImages({ role: 'user', content: [{ type: 'text', text: 'The images the tool results above returned:' }, ...toolImages] });
    toolImages = [];
  };
  for (const m of messages) {
    if (m.role !== 'toolResult') flushToolImages();
    const { message, images } = converted(m);
    if (message !== null) push(message);
    if (images.length > 0) toolImages = [...toolImages, ...images];
  }
  flushToolImages();
}

/** Session messages in chat-completions form (see walk), after the system prompt's message. */
export function toOpenAiMessages(systemPrompt: string, messages: readonly Message[]): Json[] {
  const out: Json[] = [];
  if (systemPrompt !== '') out.push({ role: 'system', content: systemPrompt });
  walk(
    messages,
    convert,
    (m) => out.push(m),
    (m) => out.push(m),
  );
  return out;
}

/**
 * The encoded JSON of each frozen session message's chat-completions form, made once. A request repeats
 * every earlier message of the conversation, and the provider's process receives them frozen (they are
 * kept for the next request to build on), so each turn would otherwise serialise and encode the whole
 * conversation again; and V8 serialises a whole value on its slow path once any string in it is not ASCII
 * (the system prompt usually has one), several times slower. A message that is not frozen throughout might
 * still change, so it is serialised each time.
 */
const messageBytes = new WeakMap<Message, { message: Uint8Array<ArrayBuffer> | null; images: Json[] }>();

function convertedBytes(m: Message): { message: Uint8Array<ArrayBuffer> | null; images: Json[] } {
  const kept = messageBytes.get(m);
  if (kept) return kept;
  const { message, images } = convert(m);
  const made = { message: message ? jsonBytes(message) : null, images };
  if (deeplyFrozen(m)) messageBytes.set(m, made);
  return made;
}

/** Frozen, and every object inside it too: nothing in it can change any more. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const v of Object.values(value)) if (!deeplyFrozen(v)) return false;
  return true;
}

const NOT_ASCII = /[\u0080-\uffff]/;
const NOT_ASCII_ALL = /[\u0080-\uffff]/g;
const encoder = new TextEncoder();

/**
 * JSON with every character beyond ASCII written as its `\uXXXX` escape: the same value to any JSON reader,
 * and a string V8 keeps one byte a character, which it encodes on its fast path.
 */
function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  return NOT_ASCII.test(json) ? json.replace(NOT_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

const jsonBytes = (value: unknown): Uint8Array<ArrayBuffer> => encoder.encode(asciiJson(value));

/** The system message's encoded JSON, kept for the prompt it was made from (a run sends the same one each turn). */
let systemBytes = { prompt: '', bytes: new Uint8Array() };

const toolsBytesOf = new WeakMap<object, Uint8Array<ArrayBuffer>>();

/** The encoded JSON of the tools (`converted`, made from `tools`), kept when the request's list is frozen (a run sends the same list). */
function toolsBytes(tools: ProviderRequest['tools'], converted: unknown): Uint8Array<ArrayBuffer> {
  const kept = toolsBytesOf.get(tools);
  if (kept !== undefined) return kept;
  const bytes = jsonBytes(converted);
  if (deeplyFrozen(tools)) toolsBytesOf.set(tools, bytes);
  return bytes;
}

/** The JSON body of one streaming chat-completions call. */
export function openAiRequestBody(request: ProviderRequest, preset: OpenAiCompatiblePreset): Json {
  const { model, ...rest } = requestFields(request, preset);
  return { model, messages: toOpenAiMessages(request.systemPrompt, request.messages), ...rest };
}

/**
 * `openAiRequestBody(request, preset)` as the bytes of its JSON, ASCII only (see asciiJson): made from the kept
 * bytes of each frozen message (see messageBytes) and of a frozen tool list, so a turn costs the new messages
 * and one copy of the rest.
 */
export function openAiRequestBytes(request: ProviderRequest, preset: OpenAiCompatiblePreset): Uint8Array<ArrayBuffer> {
  const { model, ...rest } = requestFields(request, preset);
  const chunks: Uint8Array<ArrayBuffer>[] = [encoder.encode(`{"model":${asciiJson(model)},"messages":[`)];
  let first = true;
  const add = (bytes: Uint8Array<ArrayBuffer>) => {
    if (!first) chunks.push(COMMA);
    chunks.push(bytes);
    first = false;
  };
  if (request.systemPrompt !== '') {
    if (systemBytes.prompt !== request.systemPrompt)
      systemBytes = { prompt: request.systemPrompt, bytes: jsonBytes({ role: 'system', content: request.systemPrompt }) };
    add(systemBytes.bytes);
  }
  walk(request.messages, convertedBytes, add, (m) => add(jsonBytes(m)));
  let tail = ']';
  for (const [key, value] of Object.entries(rest)) {
    tail += `,${JSON.stringify(key)}:`;
    if (key !== 'tools') tail += asciiJson(value);
    else {
      chunks.push(encoder.encode(tail), toolsBytes(request.tools, value));
      tail = '';
    }
  }
  chunks.push(encoder.encode(`${tail}}`));
  return concat(chunks);
}

const COMMA = encoder.encode(',');

function concat(chunks: readonly Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Every field of the body but the messages, `model` first. */
function requestFields(request: ProviderRequest, preset: OpenAiCompatiblePreset): Json {
  const body: Json = {
    model: request.model.id,
    stream: true,
  };
  if (preset.streamUsage) body.stream_options = { include_usage: true };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }
  if (request.responseSchema) {
    const { name, description, schema } = request.responseSchema;
    body.response_format = { type: 'json_schema', json_schema: { name, ...(description !== undefined ? { description } : {}), schema } };
  }
  if (request.maxTokens !== undefined) body[preset.maxTokensField] = request.maxTokens;
  const effort = request.thinkingLevel ? EFFORT[request.thinkingLevel] : undefined;
  if (effort && request.model.reasoning) {
    if (preset.reasoningParam === 'reasoning_effort') body.reasoning_effort = effort;
    else if (preset.reasoningParam === 'openrouter') body.reasoning = { effort };
  }
  return body;
}
