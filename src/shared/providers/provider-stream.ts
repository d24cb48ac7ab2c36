import { z } from 'zod';
import { AssistantMessage, type Message } from '../sessions/index.ts';
import type { ToolSpec } from '../tools/index.ts';

/** A model a provider offers; prices are US dollars per million tokens. */
export const ModelInfo = z.object({
  id: z.string(),
  name: z.string().optional(),
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive().optional(),
  reasoning: z.boolean().default(false),
  /** Whether the model reads images, where a catalog says so. */
  images: z.boolean().optional(),
  pricing: z
    .object({
      input: z.number().nonnegative(),
      output: z.number().nonnegative(),
      cacheRead: z.number().nonnegative().default(0),
      cacheWrite: z.number().nonnegative().default(0),
    })
    .default({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
  /** False when no price is known for the model: its cost is then unknown (never shown as $0.00). Absent: priced. */
  priced: z.boolean().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

/** One call to a model. */
export interface ProviderRequest {
  model: ModelInfo;
  systemPrompt: string;
  messages: Message[];
  tools: ToolSpec[];
  thinkingLevel?: string | null;
  maxTokens?: number;
  /**
   * The answer must be JSON that follows this schema. Each provider sends it in its own form (OpenAI-compatible:
   * `response_format` json_schema; Anthropic: a tool of this name that the model is made to call).
   */
  responseSchema?: ResponseSchema;
}

/** A JSON schema an answer must follow (see ProviderRequest.responseSchema). */
export interface ResponseSchema {
  /** Letters, digits, `_` and `-` (both wire formats name it). */
  name: string;
  description?: string;
  /** A JSON schema of an object. */
  schema: Record<string, unknown>;
}

/** Why a call failed, as far as the agent loop needs to know (overflow ⇒ compact and retry once). */
export const ProviderErrorKind = z.enum([
  'context_overflow',
  'rate_limit',
  'auth',
  'bad_request',
  'server',
  'network',
  'bad_stream',
  'aborted',
  'blocked',
  'unknown',
]);
export type ProviderErrorKind = z.infer<typeof ProviderErrorKind>;

/**
 * What a provider stream yields. A stream never throws: it ends with exactly one `done` or `error`, whose
 * message is complete (text, thinking and tool calls assembled; usage and cost filled in). An `error`'s
 * message has stopReason 'error' or 'aborted' and an errorMessage a person can act on.
 */
export type ProviderEvent =
  | { type: 'start' }
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking_delta'; delta: string }
  | { type: 'toolcall_delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  /** Something the user should know that is not part of the reply (a budget nearly used up). */
  | { type: 'notice'; message: string }
  | { type: 'done'; message: AssistantMessage }
  | { type: 'error'; kind: ProviderErrorKind; message: AssistantMessage };

/** The schema of a ProviderEvent, for events that arrive from a plugin process. */
export const ProviderEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('text_delta'), delta: z.string() }),
  z.object({ type: z.literal('thinking_delta'), delta: z.string() }),
  z.object({
    type: z.literal('toolcall_delta'),
    index: z.number().int().nonnegative(),
    id: z.string().optional(),
    name: z.string().optional(),
    argumentsDelta: z.string(),
  }),
  z.object({ type: z.literal('notice'), message: z.string() }),
  z.object({ type: z.literal('done'), message: AssistantMessage }),
  z.object({ type: z.literal('error'), kind: ProviderErrorKind, message: AssistantMessage }),
]);

/** The part of AbortSignal a stream uses (shared code has neither DOM nor Node types). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export type StreamFn = (request: ProviderRequest, signal: AbortSignalLike) => AsyncIterable<ProviderEvent>;
