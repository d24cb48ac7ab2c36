import { messageText, type Message } from '../../shared/sessions/index.ts';

/** The most text a prompt block is given to judge what the request is about. */
export const RECALL_PROMPT_CHARS = 4000;

/**
 * What a request is about, for prompt blocks that pick what to add (memory recall): the latest user message
 * first, then the other user and assistant messages, newest first, until RECALL_PROMPT_CHARS. Tool results
 * are left out: they are long and say little about what the user asks.
 */
export function recallPrompt(messages: readonly Message[], maxChars = RECALL_PROMPT_CHARS): string {
  const spoken = messages.filter((m) => roleOf(m) === 'user' || roleOf(m) === 'assistant');
  const latestUser = spoken.findLastIndex((m) => roleOf(m) === 'user');
  const order = [...(latestUser >= 0 ? [spoken[latestUser]!] : []), ...spoken.filter((_, i) => i !== latestUser).reverse()];
  const parts: string[] = [];
  let left = maxChars;
  for (const message of order) {
    if (left <= 0) break;
    const text = messageText(message).trim();
    if (text === '') continue;
    const kept = text.length > left ? text.slice(0, left) : text;
    parts.push(kept);
    left -= kept.length + 1;
  }
  return parts.join('\n');
}

function roleOf(message: Message): unknown {
  return (message as { role?: unknown }).role;
}
