import type { ProviderRequest } from '../../shared/providers/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import { asciiBytes, jsonBytes, KeptByObject, KeptByText, objectBytes } from '../provider-common/index.ts';
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
 * The encoded JSON of each session message's chat-completions form, kept for a frozen one (see
 * provider-common/kept-json.ts): a turn serialises only its new messages.
 */
const keptMessages = new KeptByObject<Message, { message: Uint8Array<ArrayBuffer> | null; images: Json[] }>((m) => {
  const { message, images } = convert(m);
  return { message: message ? jsonBytes(message) : null, images };
});

/** The encoded JSON of a request's tools, kept for a frozen list (a run sends the same list each turn). */
const keptTools = new KeptByObject<ProviderRequest['tools'], Uint8Array<ArrayBuffer>>((tools) => jsonBytes(openAiTools(tools)));

/** The system message's encoded JSON, kept for the prompt it was made from (a run sends the same one each turn). */
const keptSystem = new KeptByText<Uint8Array<ArrayBuffer>>();

const COMMA = asciiBytes(',');
const OPEN = asciiBytes('[');
const CLOSE = asciiBytes(']');

/** The JSON body of one streaming chat-completions call. */
export function openAiRequestBody(request: ProviderRequest, preset: OpenAiCompatiblePreset): Json {
  return { ...requestFields(request, preset), messages: toOpenAiMessages(request.systemPrompt, request.messages) };
}

/**
 * `openAiRequestBody(request, preset)` as the bytes of its JSON, ASCII only: made from the kept bytes of each
 * frozen message and of a frozen tool list, so a turn costs its new messages and one copy of the rest.
 */
export function openAiRequestBytes(request: ProviderRequest, preset: OpenAiCompatiblePreset): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array<ArrayBuffer>[] = [OPEN];
  const add = (bytes: Uint8Array<ArrayBuffer>) => {
    if (chunks.length > 1) chunks.push(COMMA);
    chunks.push(bytes);
  };
  if (request.systemPrompt !== '') {
    add(keptSystem.get(request.systemPrompt, (prompt) => jsonBytes({ role: 'system', content: prompt })));
  }
  walk(
    request.messages,
    (m) => keptMessages.get(m),
    add,
    (m) => add(jsonBytes(m)),
  );
  chunks.push(CLOSE);
  const kept = new Map([['messages', chunks]]);
  if (request.tools.length > 0) kept.set('tools', [keptTools.get(request.tools)]);
  return objectBytes({ ...requestFields(request, preset), messages: null }, kept);
}

function openAiTools(tools: ProviderRequest['tools']): Json[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** Every field of the body but the messages, in the body's order (the messages come second, after `model`). */
function requestFields(request: ProviderRequest, preset: OpenAiCompatiblePreset): Json {
  const body: Json = {
    model: request.model.id,
    messages: undefined,
    stream: true,
  };
  if (preset.streamUsage) body.stream_options = { include_usage: true };
  if (request.tools.length > 0) {
    body.tools = openAiTools(request.tools);
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
