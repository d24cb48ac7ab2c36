import { type Entry, type Message, type ModelContext, usageOf } from '../../shared/sessions/index.ts';

const CHARS_PER_TOKEN = 4;
const IMAGE_CHARS = 4800;

/** A rough count (4 characters a token) for text the model has not reported usage for. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: Message): number {
  let chars = 0;
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') chars += content.length;
  else if (Array.isArray(content)) {
    for (const part of content as { type?: string; text?: string; thinking?: string; name?: string; arguments?: unknown }[]) {
      if (part.type === 'text') chars += part.text?.length ?? 0;
      else if (part.type === 'thinking') chars += part.thinking?.length ?? 0;
      else if (part.type === 'toolCall') chars += (part.name?.length ?? 0) + JSON.stringify(part.arguments ?? {}).length;
      else if (part.type === 'image') chars += IMAGE_CHARS;
      else chars += JSON.stringify(part).length;
    }
  } else chars += JSON.stringify(message).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function usageTokens(message: Message): number | null {
  const usage = usageOf(message);
  if (!usage) return null;
  const total = usage.totalTokens ?? usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return total > 0 ? total : null;
}

/**
 * Tokens the context will take: the usage the newest assistant reply reported (it counts everything up to
 * it, system prompt and tools included) plus an estimate of what came after; without usage, an estimate
 * of every message plus `overheadTokens`. Usage from before the newest compaction is stale and ignored.
 */
export function estimateContextTokens(context: Pick<ModelContext, 'entries' | 'messages'>, overheadTokens = 0): number {
  const { entries, messages } = context;
  const first = entries[0] as Entry | undefined;
  const compactedAt = first?.type === 'compaction' ? Date.parse(first.timestamp) : Number.NEGATIVE_INFINITY;
  for (let i = messages.length - 1; i >= 0; i--) {
    const used = usageTokens(messages[i]!);
    if (used === null) continue;
    const at = Date.parse(entries[i]?.timestamp ?? '');
    if (!(at > compactedAt)) break;
    let after = 0;
    for (const m of messages.slice(i + 1)) after += estimateMessageTokens(m);
    return used + after;
  }
  let sum = overheadTokens;
  for (const m of messages) sum += estimateMessageTokens(m);
  return sum;
}
