import type { AssistantMessage, Entry, Message, ModelContext, ToolCall, ToolResultMessage } from '../../shared/sessions/index.ts';
import { estimateMessageTokens } from './context-tokens.ts';

/** Layer 1 of keeping a long context small, with no model call (the core settings `context.mask*`). */
export interface MaskingSettings {
  /** Tool output older than this many of the context's newest tokens is hidden from the request; 0: never. */
  maskAfterTokens: number;
  /** The hidden part grows by whole batches of this many tokens, so the request's prefix stays the same in between. */
  maskBatchTokens: number;
}

export const DEFAULT_MASKING: MaskingSettings = { maskAfterTokens: 40_000, maskBatchTokens: 20_000 };

/** What a request carries in place of the context's messages, and what was left out of it. */
export interface MaskedMessages {
  messages: Message[];
  /** Tool results replaced by a placeholder (older than the mask boundary). */
  masked: number;
  /** Tool results replaced by a pointer to a later identical call. */
  repeats: number;
  /** Call-and-result pairs left out of loops of identical calls. */
  loopPairs: number;
  /** By message of the context: sent as it is, as a placeholder, as a pointer to a later identical result, or left out of a loop. */
  states: SentState[];
}

export type SentState = 'kept' | 'masked' | 'repeat' | 'loop';

/** The most characters of a call's arguments a placeholder quotes. */
const ARGUMENT_CHARS = 160;
/** Consecutive identical call-and-result pairs from which a loop is collapsed. */
const LOOP_MIN = 3;

const n = (x: number) => x.toLocaleString('en');

/** Token estimates of messages already counted: context messages are shared and never change. */
const tokenCache = new WeakMap<Message, number>();
function tokensOf(message: Message): number {
  let tokens = tokenCache.get(message);
  if (tokens === undefined) {
    tokens = estimateMessageTokens(message);
    tokenCache.set(message, tokens);
  }
  return tokens;
}

function resultText(result: ToolResultMessage): string {
  let text = '';
  for (const part of result.content) text += part.type === 'text' ? part.text : '\u0000image';
  return text;
}

function resultChars(result: ToolResultMessage): number {
  let chars = 0;
  for (const part of result.content) chars += part.type === 'text' ? part.text.length : 1;
  return chars;
}

function shortArguments(call: ToolCall | undefined): string {
  if (!call) return '';
  const json = JSON.stringify(call.arguments ?? {});
  return json.length <= ARGUMENT_CHARS ? json : `${json.slice(0, ARGUMENT_CHARS)}…`;
}

function withText(result: ToolResultMessage, text: string): ToolResultMessage {
  return { ...result, content: [{ type: 'text', text }] };
}

/** The one tool call of an assistant message whose only other parts are text or thinking; null otherwise. */
function singleCall(message: Message): ToolCall | null {
  if (message.role !== 'assistant') return null;
  let call: ToolCall | null = null;
  for (const part of (message as AssistantMessage).content) {
    if (part.type !== 'toolCall') continue;
    if (call) return null;
    call = part;
  }
  return call;
}

/** Keys already built, by result message (context messages are shared and never change). */
const loopKeys = new WeakMap<Message, { assistant: Message; key: string }>();
const repeatKeys = new WeakMap<Message, { call: ToolCall | undefined; key: string }>();

/** What makes two call-and-result pairs the same step of a loop: the call, the reply's text and the result. */
function loopKey(assistant: AssistantMessage, call: ToolCall, result: ToolResultMessage): string {
  const known = loopKeys.get(result);
  if (known?.assistant === assistant) return known.key;
  const said = assistant.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const key = JSON.stringify([call.name, call.arguments ?? {}, said, result.isError, resultText(result)]);
  loopKeys.set(result, { assistant, key });
  return key;
}

/** What makes two results the same read: the tool, the call's arguments and the result. */
function repeatKey(result: ToolResultMessage, call: ToolCall | undefined): string {
  const known = repeatKeys.get(result);
  if (known && known.call === call) return known.key;
  const key = JSON.stringify([result.toolName, call?.arguments ?? null, result.isError, resultText(result)]);
  repeatKeys.set(result, { call, key });
  return key;
}

/**
 * The messages a request carries for a context: the stored context itself is never changed. Deterministic:
 * the same context and settings give the same messages, byte for byte.
 *
 * Positions are estimated tokens from the context's start. Everything here rewrites only what ends before
 * the settled line, which moves by whole batches (`maskBatchTokens`), so between jumps a request starts with
 * exactly the bytes the previous one started with and the provider's prompt cache holds:
 * - A loop (3 or more consecutive identical calls with identical results) is sent once, with its count.
 * - A tool result identical to a later one of the same call (same tool, arguments and text: a file read
 *   again unchanged) points to the later one's entry.
 * - Tool output that ends `maskAfterTokens` before the settled line is replaced by a placeholder naming the
 *   tool, its arguments, its size and its entry: the output after this mask boundary stays between
 *   `maskAfterTokens` and `maskAfterTokens` + `maskBatchTokens`.
 */
export function maskToolOutput(context: Pick<ModelContext, 'entries' | 'messages'>, settings: MaskingSettings): MaskedMessages {
  const { entries, messages } = context;
  const count = messages.length;
  const out: (Message | null)[] = [...messages];
  const states: SentState[] = Array.from({ length: count }, (): SentState => 'kept');
  const calls = new Map<string, ToolCall>(); // by call id, the newest seen so far
  const callOf: (ToolCall | undefined)[] = []; // by result index: the call it answers
  const ends: number[] = []; // by index: estimated tokens from the context's start to the message's end
  let total = 0;
  for (let i = 0; i < count; i++) {
    const m = messages[i]!;
    if (m.role === 'assistant') for (const part of (m as AssistantMessage).content) if (part.type === 'toolCall') calls.set(part.id, part);
    if (m.role === 'toolResult') callOf[i] = calls.get((m as ToolResultMessage).toolCallId);
    total += tokensOf(m);
    ends[i] = total;
  }
  const entryId = (i: number): string => (entries[i] as Entry | undefined)?.id ?? `#${i}`;
  const after = Math.max(0, settings.maskAfterTokens);
  const batch = Math.max(0, settings.maskBatchTokens);
  // In the same phase as the mask boundary, so both jump together.
  const settled = batch > 0 ? Math.max(0, Math.floor((total - after) / batch) * batch + after) : total;

  // Loops: consecutive pairs (a reply with one call, then its result) that are all the same.
  let loopPairs = 0;
  let runStart = -1;
  let runKey = '';
  let runLength = 0;
  const closeRun = (): void => {
    if (runLength >= LOOP_MIN) {
      for (let k = 0; k < runLength - 1; k++) {
        out[runStart + 2 * k] = null;
        out[runStart + 2 * k + 1] = null;
        states[runStart + 2 * k] = 'loop';
        states[runStart + 2 * k + 1] = 'loop';
      }
      loopPairs += runLength - 1;
      const last = runStart + 2 * (runLength - 1) + 1;
      const result = messages[last] as ToolResultMessage;
      out[last] = {
        ...result,
        content: [
          ...result.content,
          {
            type: 'text',
            text: `\n\n[This same call returned this same result ${runLength} times in a row; the ${runLength - 1} earlier times are left out here.]`,
          },
        ],
      };
    }
    runStart = -1;
    runKey = '';
    runLength = 0;
  };
  for (let i = 0; i + 1 < count && ends[i + 1]! <= settled; ) {
    const call = singleCall(messages[i]!);
    const result = messages[i + 1]!;
    if (call && result.role === 'toolResult' && (result as ToolResultMessage).toolCallId === call.id) {
      const key = loopKey(messages[i] as AssistantMessage, call, result as ToolResultMessage);
      if (runLength > 0 && key === runKey) runLength++;
      else {
        closeRun();
        runStart = i;
        runKey = key;
        runLength = 1;
      }
      i += 2;
    } else {
      closeRun();
      i++;
    }
  }
  closeRun();

  // Repeats: an older result identical to a later one of the same call points to it.
  let repeats = 0;
  const pointed = new Set<number>();
  const later = new Map<string, number>();
  for (let i = count - 1; i >= 0; i--) {
    const m = out[i];
    if (!m || m.role !== 'toolResult' || ends[i]! > settled) continue;
    const result = messages[i] as ToolResultMessage;
    const key = repeatKey(result, callOf[i]);
    const newer = later.get(key);
    if (newer === undefined) {
      later.set(key, i);
      continue;
    }
    const note = `[Same output as the later ${result.toolName} call with the same arguments (entry ${entryId(newer)}); left out here.]`;
    if (note.length >= resultChars(result)) continue;
    out[i] = withText(result, note);
    states[i] = 'repeat';
    pointed.add(i);
    repeats++;
  }

  // Masking: whole tool results that end before the boundary, which moves by whole batches.
  let masked = 0;
  if (after > 0) {
    const boundary = settled - after;
    for (let i = 0; i < count && ends[i]! <= boundary; i++) {
      const m = out[i];
      if (!m || m.role !== 'toolResult' || pointed.has(i)) continue;
      const result = messages[i] as ToolResultMessage;
      const chars = resultChars(result);
      const args = shortArguments(callOf[i]);
      const note =
        `[Output hidden to keep the context small: ${result.toolName}(${args}) returned ${n(chars)} characters (about ${n(tokensOf(result))} tokens)` +
        `${result.isError ? ' as an error' : ''}. The full text stays in the conversation as entry ${entryId(i)}; to see it again, repeat the call if it only reads, or ask for just the part you need.]`;
      if (note.length >= chars) continue;
      out[i] = withText(result, note);
      states[i] = 'masked';
      masked++;
    }
  }
  return { messages: out.filter((m): m is Message => m !== null), masked, repeats, loopPairs, states };
}
