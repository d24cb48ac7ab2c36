import type { ContextView } from '../../shared/api/index.ts';
import { entryPreview, type Message, type ModelContext } from '../../shared/sessions/index.ts';
import { estimateMessageTokens } from './context-tokens.ts';
import { type MaskingSettings, maskToolOutput } from './tool-output-masking.ts';

/** The most messages the view lists (the newest); a context past that is counted, not listed. */
export const CONTEXT_VIEW_ITEMS = 2000;

export interface ContextViewInput {
  context: Pick<ModelContext, 'entries' | 'messages' | 'model'>;
  masking: MaskingSettings;
  /** The branch model's context window, when known. */
  window: number | null;
}

/**
 * What the model sees now on a branch, message by message: the compaction summary it starts with, then each
 * message kept whole, masked, pointed at a later identical result, or left out of a loop, with estimated
 * tokens as stored and as sent. The same masking as the next request (maskToolOutput), so the view and the
 * request cannot disagree.
 */
export function describeContext(input: ContextViewInput): ContextView {
  const { entries, messages, model } = input.context;
  const sent = maskToolOutput(input.context, input.masking);
  // Sent messages in order, without the ones a loop left out: matched to the context's by position.
  let at = 0;
  const sentOf: (Message | null)[] = sent.states.map((state) => (state === 'loop' ? null : (sent.messages[at++] ?? null)));
  let storedTokens = 0;
  let sentTokens = 0;
  const items: ContextView['items'] = [];
  let compaction: ContextView['compaction'] = null;
  for (let i = 0; i < messages.length; i++) {
    const entry = entries[i];
    const message = messages[i]!;
    const tokens = estimateMessageTokens(message);
    const out = sentOf[i];
    const outTokens = out ? (out === message ? tokens : estimateMessageTokens(out)) : 0;
    storedTokens += tokens;
    sentTokens += outTokens;
    if (entry?.type === 'compaction')
      compaction = {
        entryId: entry.id,
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        restoreFrom: entry.parentId,
        timestamp: entry.timestamp,
      };
    const toolName = message.role === 'toolResult' ? (message as { toolName?: string }).toolName : undefined;
    items.push({
      entryId: entry?.id ?? `#${i}`,
      role: entry && entry.type !== 'message' ? entry.type : message.role,
      state: entry?.type === 'compaction' ? 'summary' : sent.states[i]!,
      tokens,
      sentTokens: outTokens,
      ...(toolName !== undefined ? { toolName } : {}),
      preview: entry ? entryPreview(entry) : '',
    });
  }
  const omitted = Math.max(0, items.length - CONTEXT_VIEW_ITEMS);
  return { model, window: input.window, sentTokens, storedTokens, compaction, items: omitted > 0 ? items.slice(omitted) : items, omitted };
}
