import type { ModelInfo, StreamFn } from '../../shared/providers/index.ts';
import { type ContentPart, contentText, type Entry, isAssistant, isToolResult, isUser, type Message, type ModelContext } from '../../shared/sessions/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import { estimateContextTokens, estimateMessageTokens } from './context-tokens.ts';
import { streamReply } from './stream-reply.ts';

export interface CompactionSettings {
  enabled: boolean;
  /** Compact before a turn when the context would use more than this share of the model's window. */
  threshold: number;
  /** Recent tokens kept word for word; capped at a third of the model's window. */
  keepRecentTokens: number;
}

export const DEFAULT_COMPACTION: CompactionSettings = { enabled: true, threshold: 0.8, keepRecentTokens: 20_000 };

export type CompactionOutcome = { ok: true; entry: Extract<Entry, { type: 'compaction' }> } | { ok: false; reason: string };

export interface CompactInput {
  store: SessionStore;
  sessionId: string;
  /** The context as it stands; its leaf must still be the session's leaf when the summary is written. */
  context: ModelContext;
  stream: StreamFn;
  model: ModelInfo;
  /** The provider's id, recorded with the summary's usage (its prices, the budget's providers). */
  provider?: string;
  keepRecentTokens: number;
  signal: AbortSignal;
}

const TOOL_RESULT_CHARS = 2000;

export const SUMMARY_SYSTEM_PROMPT =
  'You write the working summary of a conversation between a user and an AI assistant that uses tools. ' +
  'The assistant will continue from your summary and the most recent messages alone, so keep what it needs: ' +
  "the user's goals and constraints, decisions made and why, files and names involved, what was done, what failed, " +
  'and what is left to do. Be concise and concrete; write no preamble.';

/**
 * Summarises the older part of a context into a compaction entry appended under the leaf, keeping the
 * recent part word for word (the store cuts later contexts there). All or nothing: on any failure the
 * session is left exactly as it was.
 */
export async function compactSession(input: CompactInput): Promise<CompactionOutcome> {
  const { context, model } = input;
  const keep = Math.max(1, Math.min(input.keepRecentTokens, Math.floor(model.contextWindow / 3)));
  const cut = chooseCut(context, keep);
  if (cut === null) return { ok: false, reason: 'There is nothing older to summarise yet.' };
  const older = context.messages.slice(0, cut);
  const transcript = serialize(older, model.contextWindow * 2);
  const request = {
    model,
    systemPrompt: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: `<conversation>\n${transcript}\n</conversation>\n\nWrite the summary of the conversation above now.` } as Message],
    tools: [],
  };
  const reply = await streamReply({
    stream: input.stream,
    request,
    signal: input.signal,
    provider: input.provider ?? 'compaction',
    clock: Date.now,
    onDelta: () => {},
  });
  if (reply.errorKind !== null) {
    return {
      ok: false,
      reason:
        reply.errorKind === 'aborted'
          ? 'The run was stopped while summarising.'
          : `The summary could not be written: ${reply.message.errorMessage ?? reply.errorKind}`,
    };
  }
  const summary = contentText(reply.message.content).trim();
  if (input.signal.aborted) return { ok: false, reason: 'The run was stopped while summarising.' };
  if (summary === '') return { ok: false, reason: 'The model returned an empty summary.' };
  if (input.store.leaf(input.sessionId) !== context.leafId) return { ok: false, reason: 'The conversation changed while it was being summarised.' };
  const entry = input.store.append(input.sessionId, {
    type: 'compaction',
    summary,
    firstKeptEntryId: context.entries[cut]!.id,
    tokensBefore: estimateContextTokens(context),
    // The summary request is charged like a reply: its tokens and cost stay with the entry it wrote.
    ...(reply.message.usage ? { usage: reply.message.usage } : {}),
    ...(reply.message.provider !== undefined ? { provider: reply.message.provider } : {}),
    ...(reply.message.model !== undefined ? { model: reply.message.model } : {}),
  });
  return { ok: true, entry: entry as Extract<Entry, { type: 'compaction' }> };
}

/**
 * Index of the first entry kept word for word: the newest place to cut that keeps at least `keep` tokens,
 * else the newest place at all. Never at a tool result (its call would be summarised away) nor at the
 * first entry (nothing would be summarised). null when there is no such place.
 */
function chooseCut(context: ModelContext, keep: number): number | null {
  const { entries, messages } = context;
  const cuttable = (i: number): boolean => {
    const e = entries[i]!;
    if (e.type === 'custom_message' || e.type === 'branch_summary') return true;
    return e.type === 'message' && (e.message.role === 'user' || e.message.role === 'assistant');
  };
  let kept = 0;
  let newest: number | null = null;
  for (let i = messages.length - 1; i >= 1; i--) {
    kept += estimateMessageTokens(messages[i]!);
    if (!cuttable(i)) continue;
    newest ??= i;
    if (kept >= keep) return i;
  }
  return newest;
}

function serialize(messages: readonly Message[], maxChars: number): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (isUser(m)) lines.push(`[User]: ${contentText(m.content, { image: '[image]' })}`);
    else if (isAssistant(m)) {
      for (const part of m.content) {
        if (part.type === 'text' && part.text) lines.push(`[Assistant]: ${part.text}`);
        else if (part.type === 'toolCall') lines.push(`[Assistant called ${part.name}]: ${JSON.stringify(part.arguments ?? {})}`);
      }
    } else if (isToolResult(m)) {
      const text = contentText(m.content, { image: '[image]' });
      const clipped = text.length > TOOL_RESULT_CHARS ? `${text.slice(0, TOOL_RESULT_CHARS)} [… ${text.length - TOOL_RESULT_CHARS} more characters]` : text;
      lines.push(`[Result of ${m.toolName}]: ${clipped}`);
    } else lines.push(`[${m.role}]: ${otherText((m as { content?: unknown }).content)}`);
  }
  const all = lines.join('\n');
  if (all.length <= maxChars) return all;
  const head = Math.floor(maxChars * 0.2);
  return `${all.slice(0, head)}\n[… ${all.length - maxChars} characters left out …]\n${all.slice(all.length - (maxChars - head))}`;
}

/** The text of a message of a role the app does not know: its content is whatever that role carries. */
function otherText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return contentText(content as ContentPart[], { image: '[image]' });
}
