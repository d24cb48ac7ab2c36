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

/**
 * Session messages in chat-completions form. Failed and aborted replies are left out (they are never
 * context); thinking is not sent back; other roles with text content become user messages.
 */
export function toOpenAiMessages(systemPrompt: string, messages: Message[]): Json[] {
  const out: Json[] = [];
  if (systemPrompt !== '') out.push({ role: 'system', content: systemPrompt });
  // A tool message carries text only: the images of a run of tool results follow it as one user message.
  let toolImages: Json[] = [];
  const flushToolImages = () => {
    if (toolImages.length === 0) return;
    out.push({ role: 'user', content: [{ type: 'text', text: 'The images the tool results above returned:' }, ...toolImages] });
    toolImages = [];
  };
  for (const m of messages) {
    if (m.role !== 'toolResult') flushToolImages();
    if (m.role === 'user') {
      out.push({ role: 'user', content: userContent(m.content) });
    } else if (m.role === 'assistant') {
      const a = m as Extract<Message, { role: 'assistant' }>;
      if (a.stopReason === 'error' || a.stopReason === 'aborted') continue;
      const text = a.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
      const calls = a.content.flatMap((c) =>
        c.type === 'toolCall' ? [{ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }] : [],
      );
      if (text === '' && calls.length === 0) continue;
      const msg: Json = { role: 'assistant', content: text === '' ? null : text };
      if (calls.length > 0) msg.tool_calls = calls;
      out.push(msg);
    } else if (m.role === 'toolResult') {
      const r = m as Extract<Message, { role: 'toolResult' }>;
      out.push({ role: 'tool', tool_call_id: r.toolCallId, content: textOf(r.content) || '(no output)' });
      for (const c of r.content)
        if (c.type === 'image') toolImages.push({ type: 'image_url', image_url: { url: `data:${String(c.mimeType)};base64,${String(c.data)}` } });
    } else if ('content' in m) {
      const text = textOf((m as Json).content);
      if (text !== '') out.push({ role: 'user', content: text });
    }
  }
  flushToolImages();
  return out;
}

/** The JSON body of one streaming chat-completions call. */
export function openAiRequestBody(request: ProviderRequest, preset: OpenAiCompatiblePreset): Json {
  const body: Json = {
    model: request.model.id,
    messages: toOpenAiMessages(request.systemPrompt, request.messages),
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
