import type { ModelInfo, StreamFn } from '../../shared/providers/index.ts';
import { contentText, type EntryInput, type Message } from '../../shared/sessions/index.ts';
import { streamReply } from './stream-reply.ts';

/** A confirm turn's question and answer: a custom entry, so never sent to the model again and never shown. */
export const CONFIRM_TURN_TYPE = 'amber.confirm';
/** The hidden nudge that starts the turn after a "continue" answer (sent to the model, not shown). */
export const CONFIRM_CONTINUE_TYPE = 'amber.confirm.continue';
export const CONFIRM_QUESTION =
  'Is the task the user asked for finished? Answer with exactly one word: "done" if it is finished (or you are waiting for the user), "continue" if there is more you should do now.';
export const CONFIRM_CONTINUE = 'The task is not finished yet: continue with the next step.';

/** "continue" (any case, with or without punctuation or quotes) continues; anything else counts as done. */
export function confirmAnswer(text: string): 'done' | 'continue' {
  return text
    .trim()
    .toLowerCase()
    .replace(/^["'`*\s]+|["'`*.!\s]+$/g, '') === 'continue'
    ? 'continue'
    : 'done';
}

export interface ConfirmTurnInput {
  stream: StreamFn;
  model: ModelInfo;
  /** The provider's id, stamped on the reply. */
  provider: string;
  /** The run's system message, as its turns send it. */
  systemPrompt: string;
  /** The context as it stands after the reply that had no tool calls. */
  messages: readonly Message[];
  signal: AbortSignal;
  clock: () => number;
  /** Persists an entry on the run's branch (and tells the run's listeners). */
  append(input: EntryInput): void;
  /** Told what the provider wants the user to know. Must not throw. */
  onNotice(message: string): void;
  /** Told that the model asked to go on. Must not throw. */
  onContinue(): void;
}

/**
 * Asks the model, without tools and without showing anything, whether the task is finished. The question
 * and answer are kept as a custom entry (never sent again); "continue" appends a hidden nudge that the
 * next turn sends. A failed or stopped call counts as done. Resolves true when the run may end.
 */
export async function confirmTurn(input: ConfirmTurnInput): Promise<boolean> {
  const { signal, clock } = input;
  const reply = await streamReply({
    stream: input.stream,
    request: {
      model: input.model,
      systemPrompt: input.systemPrompt,
      messages: [...input.messages, { role: 'user', content: CONFIRM_QUESTION, timestamp: clock() }],
      tools: [],
      thinkingLevel: null,
    },
    signal,
    provider: input.provider,
    clock,
    onDelta: () => {},
    onNotice: input.onNotice,
  });
  const text = contentText(reply.message.content);
  const answer = reply.errorKind === null ? confirmAnswer(text) : 'done';
  input.append({
    type: 'custom',
    customType: CONFIRM_TURN_TYPE,
    data: {
      question: CONFIRM_QUESTION,
      answer,
      reply: text.slice(0, 200),
      ...(reply.message.usage ? { usage: reply.message.usage } : {}),
      ...(reply.errorKind ? { error: reply.errorKind } : {}),
    },
  });
  if (answer === 'done' || signal.aborted) return true;
  input.onContinue();
  input.append({ type: 'custom_message', customType: CONFIRM_CONTINUE_TYPE, content: CONFIRM_CONTINUE, display: false });
  return false;
}
