import type { MessageClass, StructuredSummary } from '../../shared/context/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import { compactionTranscript } from './compaction-transcript.ts';
import { estimateTextTokens } from './context-tokens.ts';
import { messageId } from './classify-and-extract.ts';

/** Where a layered compaction's summary turns from the structured summary to the messages kept word for word. */
export const KEPT_HEADING = '\n\nKept word for word:\n\n';

export interface LayeredSummary {
  /** The compaction's summary: the structured summary as text, then the messages kept word for word. */
  text: string;
  /** The indexes of the messages kept word for word. */
  keptIndexes: number[];
  /** How many messages were kept word for word, summarised (context left out for room) and pruned. */
  kept: number;
  summarised: number;
  pruned: number;
}

/**
 * What a layered compaction keeps of the messages it replaces: the structured summary, then core and context
 * messages word for word, oldest first, as far as `budgetTokens` goes. When they do not all fit, the oldest
 * context messages are left out first, then the oldest core tool results are cut to the part classify was shown
 * (`clip` characters: what made them core), then the oldest core messages are left out; prune ones never stay.
 */
export function layeredSummary(
  messages: readonly Message[],
  classes: readonly MessageClass[],
  summary: StructuredSummary,
  budgetTokens: number,
  /** Messages never kept word for word (a previous summary, which the new one replaces). */
  replaced: ReadonlySet<number> = new Set(),
  clip = 2000,
): LayeredSummary {
  const head = renderSummary(summary);
  const blocks = messages.map((m, i) => compactionTranscript(m, messageId(i)));
  const keep = classes.map((c, i) => c !== 'prune' && !replaced.has(i));
  let used = estimateTextTokens(head) + blocks.reduce((sum, b, i) => sum + (keep[i] ? estimateTextTokens(b) + 1 : 0), 0);
  const leaveOut = (kind: MessageClass) => {
    for (let i = 0; i < blocks.length && used > budgetTokens; i++) {
      if (!keep[i] || classes[i] !== kind) continue;
      keep[i] = false;
      used -= estimateTextTokens(blocks[i]!) + 1;
    }
  };
  leaveOut('context');
  for (let i = 0; i < blocks.length && used > budgetTokens; i++) {
    if (!keep[i] || classes[i] !== 'core' || messages[i]!.role !== 'toolResult') continue;
    const cut = compactionTranscript(messages[i]!, messageId(i), clip);
    used -= estimateTextTokens(blocks[i]!) - estimateTextTokens(cut);
    blocks[i] = cut;
  }
  leaveOut('core');
  const keptIndexes = keep.flatMap((k, i) => (k ? [i] : []));
  const kept = keptIndexes.map((i) => blocks[i]!);
  const text = kept.length === 0 ? head : `${head}${KEPT_HEADING}${kept.join('\n\n')}`;
  const pruned = classes.filter((c) => c === 'prune').length;
  return { text, keptIndexes, kept: kept.length, summarised: messages.length - kept.length - pruned, pruned };
}

const list = (items: readonly string[]): string => (items.length === 0 ? ' none' : `\n${items.map((i) => `- ${i}`).join('\n')}`);

/** The structured summary as the text the model reads. */
export function renderSummary(summary: StructuredSummary): string {
  return [
    `Goal: ${summary.goal}`,
    `Decisions:${list(summary.decisions)}`,
    `Files:${list(summary.files)}`,
    `Open errors:${list(summary.openErrors)}`,
    `Next step: ${summary.nextStep}`,
  ].join('\n');
}
