import type { ProviderRequest } from '../../shared/providers/index.ts';
import type { Message } from '../../shared/sessions/index.ts';

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
 * Session messages as Anthropic Messages: tool results become `tool_result` blocks of a user turn
 * (consecutive results share one), signed thinking goes back as it came, unsigned thinking from other
 * providers is dropped, failed and aborted replies are left out.
 */
export function toAnthropicMessages(messages: Message[]): Json[] {
  const out: Json[] = [];
  const pushUser = (content: Json[]) => {
    const last = out.at(-1);
    if (last && last.role === 'user' && Array.isArray(last.content)) (last.content as Json[]).push(...content);
    else out.push({ role: 'user', content });
  };
  for (const m of messages) {
    if (m.role === 'user') {
      const content = blocks(m.content);
      if (content.length > 0) pushUser(content);
    } else if (m.role === 'assistant') {
      const a = m as Extract<Message, { role: 'assistant' }>;
      if (a.stopReason === 'error' || a.stopReason === 'aborted') continue;
      const content = a.content.flatMap((c): Json[] => {
        if (c.type === 'text') return c.text === '' ? [] : [{ type: 'text', text: c.text }];
        if (c.type === 'thinking') {
          const signature = typeof c.thinkingSignature === 'string' ? c.thinkingSignature : undefined;
          if (c.redacted === true && signature) return [{ type: 'redacted_thinking', data: signature }];
          return signature ? [{ type: 'thinking', thinking: c.thinking, signature }] : [];
        }
        return [{ type: 'tool_use', id: anthropicToolId(c.id), name: c.name, input: c.arguments }];
      });
      if (content.length > 0) out.push({ role: 'assistant', content });
    } else if (m.role === 'toolResult') {
      const r = m as Extract<Message, { role: 'toolResult' }>;
      const content = blocks(r.content);
      pushUser([
        {
          type: 'tool_result',
          tool_use_id: anthropicToolId(r.toolCallId),
          content: content.length > 0 ? content : [{ type: 'text', text: '(no output)' }],
          is_error: r.isError,
        },
      ]);
    } else if ('content' in m) {
      const content = blocks((m as Json).content);
      if (content.length > 0) pushUser(content);
    }
  }
  return out;
}

/** The JSON body of one streaming Messages call. */
export function anthropicRequestBody(request: ProviderRequest): Json {
  let maxTokens = request.maxTokens ?? request.model.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const body: Json = { model: request.model.id, max_tokens: maxTokens, stream: true };
  // Two cache breakpoints (of the four allowed): the system prompt, and the newest user turn, so each turn
  // of a run reads the conversation so far from the prompt cache instead of paying for it again.
  if (request.systemPrompt !== '') body.system = [{ type: 'text', text: request.systemPrompt, cache_control: EPHEMERAL }];
  const messages = toAnthropicMessages(request.messages);
  const lastUser = messages.findLast((m) => m.role === 'user');
  const lastBlocks = lastUser && Array.isArray(lastUser.content) ? (lastUser.content as Json[]) : [];
  if (lastBlocks.length > 0) lastBlocks[lastBlocks.length - 1] = { ...lastBlocks[lastBlocks.length - 1], cache_control: EPHEMERAL };
  body.messages = messages;
  if (request.tools.length > 0) body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
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
  return body;
}
