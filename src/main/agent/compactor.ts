import type { ExtractedMemory } from '../../shared/context/index.ts';
import type { ModelInfo, StreamFn } from '../../shared/providers/index.ts';
import {
  type AssistantMessage,
  type ContentPart,
  contentText,
  type Entry,
  isAssistant,
  isToolResult,
  isUser,
  type Message,
  type ModelContext,
} from '../../shared/sessions/index.ts';
import { errorMessage } from '../errors.ts';
import type { SessionStore } from '../sessions/index.ts';
import { classifyAndExtract } from './classify-and-extract.ts';
import { estimateContextTokens, estimateMessageTokens } from './context-tokens.ts';
import { KEPT_HEADING, layeredSummary } from './layered-summary.ts';
import { streamReply } from './stream-reply.ts';
import { sumUsage } from './sum-usage.ts';

export interface CompactionSettings {
  enabled: boolean;
  /** Compact before a model call when the context would use more than this share of the model's window (never below half). */
  threshold: number;
  /** Recent tokens kept word for word; capped at a third of the model's window. */
  keepRecentTokens: number;
  /** 'layered': classify + extract (layer 2), falling back to the summary pass; 'summary': the summary pass alone. */
  strategy: 'layered' | 'summary';
}

export const DEFAULT_COMPACTION: CompactionSettings = { enabled: true, threshold: 0.8, keepRecentTokens: 20_000, strategy: 'layered' };

/** The share of the model's window a layered compaction's kept context may fill (the setting context.keepPercent, as a share). */
export const DEFAULT_KEEP_SHARE = 0.5;

export type CompactionOutcome =
  | {
      ok: true;
      entry: Extract<Entry, { type: 'compaction' }>;
      /** What the extraction found worth remembering beyond the conversation (none from the summary pass). */
      memories: ExtractedMemory[];
      /** Why a layered compaction was made by the summary pass instead, when it was. */
      fallback?: string;
    }
  /** `nothingOlder`: the context has no older part to summarise, only recent messages kept word for word. */
  | { ok: false; reason: string; nothingOlder?: true };

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
  /** Default 'layered'. */
  strategy?: CompactionSettings['strategy'];
  /** Default DEFAULT_KEEP_SHARE. */
  keepShare?: number;
  signal: AbortSignal;
  clock?: () => number;
}

const TOOL_RESULT_CHARS = 2000;
const MAX_MEMORIES = 20;
const MAX_MEMORY_CHARS = 2000;

export const SUMMARY_SYSTEM_PROMPT =
  'You write the working summary of a conversation between a user and an AI assistant that uses tools. ' +
  'The assistant will continue from your summary and the most recent messages alone, so keep what it needs: ' +
  "the user's goals and constraints, decisions made and why, files and names involved, what was done, what failed, " +
  'and what is left to do. Be concise and concrete; write no preamble.';

/**
 * Replaces the older part of a context with a compaction entry appended under the leaf, keeping the recent
 * part word for word (the store cuts later contexts there). Layered: a classify and an extract request give a
 * structured summary and the messages kept word for word within the window's share; answers that fail their
 * schema twice fall back to the summary pass. Every request is charged on the entry. All or nothing: on any
 * failure (a call, the fallback, the write) the session is left exactly as it was.
 */
export async function compactSession(input: CompactInput): Promise<CompactionOutcome> {
  const { context, model } = input;
  const clock = input.clock ?? Date.now;
  const keep = Math.max(1, Math.min(input.keepRecentTokens, Math.floor(model.contextWindow / 3)));
  const cut = chooseCut(context, keep);
  if (cut === null) return { ok: false, reason: 'There is nothing older to summarise yet.', nothingOlder: true };
  const older = context.messages.slice(0, cut);
  const provider = input.provider ?? 'compaction';
  const charged: AssistantMessage[] = [];
  let written: { summary: string; strategy: CompactionSettings['strategy']; memories: ExtractedMemory[]; keptEntryIds?: string[] } | null = null;
  let fallback: string | undefined;

  if ((input.strategy ?? 'layered') === 'layered') {
    const shown = layeredInput(input.store, input.sessionId, context, cut);
    const layered = await classifyAndExtract({ stream: input.stream, model, provider, messages: shown.messages, signal: input.signal, clock });
    charged.push(...layered.replies);
    if (layered.ok) {
      let recent = 0;
      for (const m of context.messages.slice(cut)) recent += estimateMessageTokens(m);
      const budget = Math.max(0, Math.floor((input.keepShare ?? DEFAULT_KEEP_SHARE) * model.contextWindow) - recent);
      const kept = layeredSummary(shown.messages, layered.classes, layered.extract.summary, budget, shown.replaced);
      const keptEntryIds = kept.keptIndexes.flatMap((i) => (shown.entryIds[i] ? [shown.entryIds[i]] : []));
      // A handful of short memories at most: what a model extracts beyond that is noise, and the event stays small.
      const memories = layered.extract.memories.slice(0, MAX_MEMORIES).map((m) => ({ ...m, text: m.text.slice(0, MAX_MEMORY_CHARS) }));
      written = { summary: kept.text, strategy: 'layered', memories, keptEntryIds };
    } else if (layered.failure === 'aborted') return { ok: false, reason: 'The run was stopped while summarising.' };
    else if (layered.failure === 'call') return { ok: false, reason: `The ${layered.step} request failed: ${layered.reason}` };
    // Answers that did not follow their schema twice, or a transcript too long for one request: the summary pass below.
    else fallback = layered.reason;
  }
  if (written === null) {
    const pass = await summaryPass(input, older, provider, clock);
    charged.push(...pass.replies);
    if (!pass.ok) return pass;
    written = { summary: pass.summary, strategy: 'summary', memories: [] };
  }
  if (input.signal.aborted) return { ok: false, reason: 'The run was stopped while summarising.' };
  if (input.store.leaf(input.sessionId) !== context.leafId) return { ok: false, reason: 'The conversation changed while it was being summarised.' };
  const usage = sumUsage(charged);
  const last = charged.findLast((r) => r.stopReason !== 'error' && r.stopReason !== 'aborted');
  let entry: Entry;
  try {
    entry = input.store.append(input.sessionId, {
      type: 'compaction',
      summary: written.summary,
      firstKeptEntryId: context.entries[cut]!.id,
      tokensBefore: estimateContextTokens(context),
      strategy: written.strategy,
      ...(written.keptEntryIds && written.keptEntryIds.length > 0 ? { keptEntryIds: written.keptEntryIds } : {}),
      // Every request of the compaction is charged like a reply: their tokens and cost stay with the entry they wrote.
      ...(usage ? { usage } : {}),
      ...(last?.provider !== undefined ? { provider: last.provider } : {}),
      ...(last?.model !== undefined ? { model: last.model } : {}),
    });
  } catch (e) {
    return { ok: false, reason: `The summary could not be saved: ${errorMessage(e)}` };
  }
  const done = { ok: true as const, entry: entry as Extract<Entry, { type: 'compaction' }>, memories: written.memories };
  return fallback !== undefined ? { ...done, fallback } : done;
}

/**
 * The messages layer 2 classifies: the older part of the context; when it starts with a layered compaction,
 * that compaction's structured summary alone (the new summary replaces it, so it is never kept word for word)
 * and the messages it kept, each classified again, instead of one message of all of them. Summaries are thus
 * never summarised inside summaries.
 */
function layeredInput(
  store: SessionStore,
  sessionId: string,
  context: ModelContext,
  cut: number,
): { messages: Message[]; entryIds: (string | null)[]; replaced: Set<number> } {
  const messages = context.messages.slice(0, cut);
  const entryIds: (string | null)[] = context.entries.slice(0, cut).map((e) => e.id);
  const first = context.entries[0];
  if (first?.type !== 'compaction') return { messages, entryIds, replaced: new Set() };
  const kept: { id: string; message: Message }[] = [];
  for (const id of first.keptEntryIds ?? []) {
    try {
      const entry = store.entry(sessionId, id);
      if (entry.type === 'message') kept.push({ id, message: entry.message });
    } catch {
      // An entry that cannot be read is left to the structured summary, which covers it.
    }
  }
  const structured = first.summary.split(KEPT_HEADING)[0]!;
  return {
    messages: [{ role: 'user', content: `The conversation so far, summarised:\n\n${structured}` }, ...kept.map((k) => k.message), ...messages.slice(1)],
    entryIds: [null, ...kept.map((k) => k.id), ...entryIds.slice(1)],
    replaced: new Set([0]),
  };
}

/** The summary pass: one request that summarises the older messages as prose. */
async function summaryPass(
  input: CompactInput,
  older: readonly Message[],
  provider: string,
  clock: () => number,
): Promise<{ ok: true; summary: string; replies: AssistantMessage[] } | { ok: false; reason: string; replies: AssistantMessage[] }> {
  const transcript = serialize(older, input.model.contextWindow * 2);
  const request = {
    model: input.model,
    systemPrompt: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: `<conversation>\n${transcript}\n</conversation>\n\nWrite the summary of the conversation above now.` } as Message],
    tools: [],
  };
  const reply = await streamReply({ stream: input.stream, request, signal: input.signal, provider, clock, onDelta: () => {} });
  const replies = [reply.message];
  if (reply.errorKind !== null) {
    return {
      ok: false,
      replies,
      reason:
        reply.errorKind === 'aborted'
          ? 'The run was stopped while summarising.'
          : `The summary could not be written: ${reply.message.errorMessage ?? reply.errorKind}`,
    };
  }
  const summary = contentText(reply.message.content).trim();
  if (input.signal.aborted) return { ok: false, reason: 'The run was stopped while summarising.', replies };
  if (summary === '') return { ok: false, reason: 'The model returned an empty summary.', replies };
  return { ok: true, summary, replies };
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
