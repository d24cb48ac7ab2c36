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
 * The JSON of each frozen session message's chat-completions form, made once. A request repeats every
 * earlier message of the conversation, and the provider's process receives them frozen (they are kept for
 * the next request to build on), so each turn would otherwise serialise the whole conversation again; and
 * V8 serialises a whole value on its slow path once any string in it is not ASCII (the system prompt
 * usually has one), several times slower. A message that is not frozen throughout might still change, so
 * it is serialised each time.
 */
const messageJson = new WeakMap<Message, { message: string | null; images: Json[] }>();

function convertedJson(m: Message): { message: string | null; images: Json[] } {
  const kept = messageJson.get(m);
  if (kept) return kept;
  const { message, images } = convert(m);
  const made = { message: message ? JSON.stringify(message) : null, images };
  if (deeplyFrozen(m)) messageJson.set(m, made);
  return made;
}

/** Frozen, and every object inside it too: nothing in it can change any more. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const v of Object.values(value)) if (!deeplyFrozen(v)) return false;
  return true;
}

/** The system message's JSON, kept for the prompt it was made from (a run sends the same one each turn). */
let systemJson = { prompt: '', json: '' };

/** `JSON.stringify(toOpenAiMessages(systemPrompt, messages))`, made from the kept JSON of each message. */
export function openAiMessagesJson(systemPrompt: string, messages: readonly Message[]): string {
  const parts: string[] = [];
  if (systemPrompt !== '') {
    if (systemJson.prompt !== systemPrompt) systemJson = { prompt: systemPrompt, json: JSON.stringify({ role: 'system', content: systemPrompt }) };
    parts.push(systemJson.json);
  }
  walk(
    messages,
    convertedJson,
    (json) => parts.push(json),
    (m) => parts.push(JSON.stringify(m)),
  );
  return `[${parts.join(',')}]`;
}

/** The JSON body of one streaming chat-completions call. */
export function openAiRequestBody(request: ProviderRequest, preset: OpenAiCompatiblePreset): Json {
  const { model, ...rest } = requestFields(request, preset);
  return { model, messages: toOpenAiMessages(request.systemPrompt, request.messages), ...rest };
}

/**
 * `JSON.stringify(openAiRequestBody(request, preset))`, with each frozen message serialised once (see
 * openAiMessagesJson), and the tools too when the request's list of them is frozen (a run sends the same list).
 */
export function openAiRequestJson(request: ProviderRequest, preset: OpenAiCompatiblePreset): string {
  const { model, ...rest } = requestFields(request, preset);
  const fields = [`"model":${JSON.stringify(model)}`, `"messages":${openAiMessagesJson(request.systemPrompt, request.messages)}`];
  for (const [key, value] of Object.entries(rest))
    fields.push(`${JSON.stringify(key)}:${key === 'tools' ? toolsJson(request.tools, value) : JSON.stringify(value)}`);
  return `{${fields.join(',')}}`;
}

const toolsJsonOf = new WeakMap<object, string>();

function toolsJson(tools: ProviderRequest['tools'], converted: unknown): string {
  const kept = toolsJsonOf.get(tools);
  if (kept !== undefined) return kept;
  const json = JSON.stringify(converted);
  if (deeplyFrozen(tools)) toolsJsonOf.set(tools, json);
  return json;
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
