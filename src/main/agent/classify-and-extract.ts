import { ClassifyAnswer, ExtractAnswer, type MessageClass } from '../../shared/context/index.ts';
import type { ModelInfo, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
import type { AssistantMessage, Message } from '../../shared/sessions/index.ts';
import { compactionTranscript } from './compaction-transcript.ts';
import { structuredAnswer } from './structured-answer.ts';

/** Characters of a tool result shown to classify and extract (what is kept word for word is kept whole). */
const TOOL_RESULT_CHARS = 2000;

/** One system message for both requests: the extract request replays the classify request's prefix byte for byte. */
export const LAYERED_SYSTEM_PROMPT =
  'You compress the working context of a conversation between a user and an AI assistant that uses tools, so that the assistant ' +
  'can go on with less of it. The conversation is given below, each message with its id in brackets. ' +
  'Answer each instruction with JSON only, following the schema it comes with.';

export const CLASSIFY_INSTRUCTION =
  'Classify every message above by its id. "core": the assistant will need it word for word to go on (what the user asked for and told, ' +
  'decisions, names, paths, numbers, errors still open). "context": it helps, but a summary would do. "prune": noise (superseded output, ' +
  'chatter, repeated reads). Answer { "items": [ { "id", "class" } ] } with one item for every id.';

export const EXTRACT_INSTRUCTION =
  'Now extract from the whole conversation above: the summary (the user’s goal; the decisions made and why; the files touched; ' +
  'the errors still open; the next step), memories worth keeping beyond this conversation (kind "user" for a preference of the user, ' +
  '"project" for a fact about the project, "procedure" for a way of doing something that worked; none when there are none), and skills ' +
  '(a named procedure with its steps that worked and would be used again; usually none).';

export interface ClassifyAndExtractInput {
  stream: StreamFn;
  model: ModelInfo;
  provider: string;
  /** The messages to classify, oldest first; message i has the id `m${i + 1}`. */
  messages: readonly Message[];
  signal: AbortSignal;
  clock: () => number;
}

export type ClassifyAndExtractResult =
  | { ok: true; classes: MessageClass[]; extract: ExtractAnswer; replies: AssistantMessage[]; requests: ProviderRequest[] }
  /** 'schema': answers failed their schema twice; 'too_long': the transcript would not fit the window (the summary pass shortens it). */
  | { ok: false; failure: 'schema' | 'too_long' | 'call' | 'aborted'; step: 'classify' | 'extract'; reason: string; replies: AssistantMessage[] };

export const messageId = (index: number): string => `m${index + 1}`;

/**
 * Layer 2's two requests. Classify: each message core, context or prune. Extract: the same system message and
 * messages (so the provider's prompt cache serves them), the classify answer, and one instruction more; it
 * answers the structured summary, memories and skills. A message the classify answer leaves out is context.
 */
export async function classifyAndExtract(input: ClassifyAndExtractInput): Promise<ClassifyAndExtractResult> {
  const transcript = input.messages.map((m, i) => compactionTranscript(m, messageId(i), TOOL_RESULT_CHARS)).join('\n\n');
  // Half the window for the transcript (4 characters a token): the rest is for the instructions and the answers.
  if (transcript.length > input.model.contextWindow * 2) {
    return { ok: false, failure: 'too_long', step: 'classify', reason: 'The older messages do not fit one classify request.', replies: [] };
  }
  const conversation: Message = { role: 'user', content: `<conversation>\n${transcript}\n</conversation>\n\n${CLASSIFY_INSTRUCTION}` };
  const base = { model: input.model, systemPrompt: LAYERED_SYSTEM_PROMPT, tools: [] };
  const common = { stream: input.stream, signal: input.signal, provider: input.provider, clock: input.clock };
  const classifyRequest = { ...base, messages: [conversation] };
  const classified = await structuredAnswer({
    ...common,
    request: classifyRequest,
    name: 'classify_messages',
    description: 'The class of every message of the conversation, by its id.',
    schema: ClassifyAnswer,
  });
  if (!classified.ok) return { ok: false, failure: classified.failure, step: 'classify', reason: classified.reason, replies: classified.replies };

  const answered: Message = { role: 'assistant', content: [{ type: 'text', text: classified.raw }], stopReason: 'stop' };
  const extractRequest = { ...base, messages: [conversation, answered, { role: 'user', content: EXTRACT_INSTRUCTION } as Message] };
  const extracted = await structuredAnswer({
    ...common,
    request: extractRequest,
    name: 'extract_summary',
    description: 'The structured summary of the conversation, with the memories and skills found in it.',
    schema: ExtractAnswer,
  });
  const replies = [...classified.replies, ...extracted.replies];
  if (!extracted.ok) return { ok: false, failure: extracted.failure, step: 'extract', reason: extracted.reason, replies };

  const byId = new Map(classified.value.items.map((item) => [item.id, item.class]));
  const classes = input.messages.map((_, i) => byId.get(messageId(i)) ?? 'context');
  return { ok: true, classes, extract: extracted.value, replies, requests: [classifyRequest, extractRequest] };
}
