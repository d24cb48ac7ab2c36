import { z } from 'zod';
import type { ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import { type AssistantMessage, contentText } from '../../shared/sessions/index.ts';
import { streamReply } from './stream-reply.ts';

/** One answer that must follow a schema: the value, or why there is none. Every reply's usage is kept, for the charge. */
export type StructuredAnswer<T> =
  | { ok: true; value: T; raw: string; replies: AssistantMessage[] }
  /** 'schema': the model answered twice, and neither answer followed the schema. */
  | { ok: false; failure: 'schema' | 'call' | 'aborted'; reason: string; replies: AssistantMessage[] };

export interface StructuredAnswerInput<T> {
  stream: StreamFn;
  /** The request; its responseSchema is set from `schema` under `name`. */
  request: Omit<ProviderRequest, 'responseSchema'>;
  name: string;
  description: string;
  schema: z.ZodType<T>;
  signal: AbortSignal;
  provider: string;
  clock: () => number;
}

/**
 * Asks for an answer that follows `schema` (sent as the request's response schema), twice at most: an answer
 * that is not JSON of the schema is asked for once more, with the same request so the prompt cache serves it.
 * A failed call (HTTP error, network, stop) is not asked again. Never throws.
 */
export async function structuredAnswer<T>(input: StructuredAnswerInput<T>): Promise<StructuredAnswer<T>> {
  const replies: AssistantMessage[] = [];
  const jsonSchema = z.toJSONSchema(input.schema, { target: 'draft-7' }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  const request: ProviderRequest = { ...input.request, responseSchema: { name: input.name, description: input.description, schema: jsonSchema } };
  let problem = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await streamReply({ stream: input.stream, request, signal: input.signal, provider: input.provider, clock: input.clock, onDelta: () => {} });
    replies.push(reply.message);
    if (reply.errorKind === 'aborted' || input.signal.aborted)
      return { ok: false, failure: 'aborted', reason: 'The run was stopped while compacting.', replies };
    if (reply.errorKind !== null) return { ok: false, failure: 'call', reason: reply.message.errorMessage ?? reply.errorKind, replies };
    const raw = answerText(reply.message, input.name);
    const parsed = parseJson(raw);
    const checked = parsed.ok ? input.schema.safeParse(parsed.value) : null;
    if (checked?.success) return { ok: true, value: checked.data, raw, replies };
    problem = checked ? z.prettifyError(checked.error) : 'the answer is not JSON';
  }
  return { ok: false, failure: 'schema', reason: `The ${input.name} answer did not follow its schema twice (${problem}).`, replies };
}

/** The answer: the arguments of the forced tool call of that name (Anthropic), else the reply's text. */
function answerText(message: AssistantMessage, name: string): string {
  for (const part of message.content) if (part.type === 'toolCall' && part.name === name) return JSON.stringify(part.arguments ?? {});
  return contentText(message.content).trim();
}

/** JSON, also when a model wrapped it in a Markdown code fence. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) };
  } catch {
    return { ok: false };
  }
}
