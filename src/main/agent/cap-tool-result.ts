import type { ToolResultMessage } from '../../shared/sessions/index.ts';
import { errorMessage } from '../errors.ts';
import type { ToolOutputKeeper } from './tool-output-store.ts';

/** The most text of one tool result that is stored and sent to the model; the rest is kept apart. */
export const MAX_TOOL_RESULT_CHARS = 50_000;

const n = (x: number) => x.toLocaleString('en');

/**
 * Cuts a result whose text is over `maxChars` to its first `maxChars` characters (images stay as they
 * are), keeps the full text with `keeper` (when there is one) and ends the text with a note saying how
 * much was cut and where the full text is. Never throws: a full text that cannot be kept is said so.
 */
export async function capToolResult(
  result: ToolResultMessage,
  sessionId: string,
  options: { maxChars?: number; keeper?: ToolOutputKeeper | undefined } = {},
): Promise<ToolResultMessage> {
  const maxChars = options.maxChars ?? MAX_TOOL_RESULT_CHARS;
  let total = 0;
  for (const part of result.content) if (part.type === 'text') total += part.text.length;
  if (total <= maxChars) return result;
  let left = maxChars;
  const content: ToolResultMessage['content'] = [];
  const texts: string[] = [];
  for (const part of result.content) {
    if (part.type !== 'text') {
      content.push(part);
      continue;
    }
    texts.push(part.text);
    if (left === 0) continue;
    let end = Math.min(left, part.text.length);
    // Never half a surrogate pair.
    if (end < part.text.length && end > 0 && /[\uD800-\uDBFF]/.test(part.text[end - 1]!)) end--;
    content.push({ ...part, text: part.text.slice(0, end) });
    left = end < part.text.length ? 0 : left - end;
  }
  const shown = content.reduce((sum, p) => sum + (p.type === 'text' ? p.text.length : 0), 0);
  let kept: string;
  try {
    if (!options.keeper) throw new Error('nowhere to keep it');
    const where = await options.keeper.keep(sessionId, result.toolCallId, texts.join('\n'));
    kept = `The full output (${n(total)} characters) is kept by Amber in its data folder (${where}), which your tools cannot read: to see more, ask for less at a time (a range, a filter, a narrower command).`;
  } catch (e) {
    kept = `The full output (${n(total)} characters) could not be kept (${errorMessage(e)}): to see more, ask for less at a time (a range, a filter, a narrower command).`;
  }
  content.push({ type: 'text', text: `\n\n[Output cut: ${n(total - shown)} of ${n(total)} characters left out. ${kept}]` });
  return { ...result, content };
}
