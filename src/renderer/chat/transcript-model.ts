import type { AssistantMessage, Entry, ToolResultMessage, UserMessage } from '../../shared/sessions/index.ts';
import { contentText, isAssistant, isToolResult, isUser, messageText } from '../../shared/sessions/index.ts';

export interface ToolCallView {
  id: string;
  name: string;
  args: unknown;
  /** Arguments still streaming in, as raw text. */
  argsText?: string;
  status: 'streaming' | 'pending' | 'awaiting' | 'running' | 'ok' | 'error' | 'denied';
  output: string;
  /** The result's `details` (tool-specific, unchecked: read it defensively), once there is a result. */
  details?: unknown;
  /** The images the result carries (stored blobs, by hash), shown on the card. */
  images?: { blob?: string; data?: string; mimeType: string }[];
}

/** A result's images, as the tool card shows them. */
function resultImages(message: ToolResultMessage): NonNullable<ToolCallView['images']> {
  return message.content.flatMap((c) =>
    c.type === 'image' ? [{ mimeType: c.mimeType, ...(c.blob !== undefined ? { blob: c.blob } : {}), ...(c.data !== undefined ? { data: c.data } : {}) }] : [],
  );
}

export type TranscriptItem =
  | { kind: 'user'; key: string; entry: Entry & { type: 'message' }; message: UserMessage; text: string }
  | {
      kind: 'assistant';
      key: string;
      entry: Entry & { type: 'message' };
      message: AssistantMessage;
      text: string;
      thinking: string;
      tools: ToolCallView[];
      /** More of the same turn follows (its tools ran and the model went on): its model and regenerate belong to the final reply. */
      midTurn?: boolean;
    }
  | { kind: 'tool-result'; key: string; entry: Entry & { type: 'message' }; message: ToolResultMessage }
  | { kind: 'note'; key: string; entry: Entry; text: string; tone: 'summary' | 'info' }
  | {
      kind: 'streaming';
      key: string;
      text: string;
      thinking: string;
      tools: ToolCallView[];
    };

/** A result's text; its images show on the card as thumbnails (a result of images only reads "[image]"). */
function resultText(message: ToolResultMessage): string {
  const text = message.content.filter((c) => c.type !== 'image');
  return text.length > 0 ? contentText(text, { separator: '\n' }) : contentText(message.content, { separator: '\n', image: '[image]' });
}

function toolStatus(message: ToolResultMessage | undefined): ToolCallView['status'] {
  if (!message) return 'pending';
  if (message.status) return message.status;
  return message.isError ? 'error' : 'ok';
}

/**
 * The entries of a branch, oldest first, as the transcript shows them: tool results folded into the tool
 * cards of the reply that called them; labels, settings changes and plugin state left out.
 */
export function toTranscriptItems(
  entries: readonly Entry[],
  live: ReadonlyMap<string, Partial<ToolCallView>> = new Map(),
  continuing = false,
): TranscriptItem[] {
  const results = new Map<string, ToolResultMessage>();
  for (const e of entries) {
    if (e.type === 'message' && isToolResult(e.message)) results.set(e.message.toolCallId, e.message);
  }
  const calledHere = new Set<string>();
  const items: TranscriptItem[] = [];
  for (const e of entries) {
    if (e.type === 'message') {
      const m = e.message;
      if (isUser(m)) {
        items.push({ kind: 'user', key: e.id, entry: e, message: m, text: messageText(m) });
      } else if (isAssistant(m)) {
        const tools: ToolCallView[] = [];
        let text = '';
        let thinking = '';
        for (const part of m.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'thinking') thinking += part.thinking;
          else if (part.type === 'toolCall') {
            const call = part;
            calledHere.add(call.id);
            const result = results.get(call.id);
            const liveState = live.get(call.id);
            tools.push({
              id: call.id,
              name: call.name,
              args: call.arguments,
              status: result ? toolStatus(result) : (liveState?.status ?? 'pending'),
              output: result ? resultText(result) : (liveState?.output ?? ''),
              ...(result && 'details' in result ? { details: result['details'] } : {}),
              ...(result && result.content.some((c) => c.type === 'image') ? { images: resultImages(result) } : {}),
            });
          }
        }
        items.push({ kind: 'assistant', key: e.id, entry: e, message: m, text, thinking, tools });
      } else if (isToolResult(m)) {
        if (!calledHere.has(m.toolCallId)) items.push({ kind: 'tool-result', key: e.id, entry: e, message: m });
      }
    } else if (e.type === 'compaction' || e.type === 'branch_summary') {
      items.push({
        kind: 'note',
        key: e.id,
        entry: e,
        text: e.type === 'compaction' ? 'Earlier messages were summarised to fit the model’s context.' : 'A summary of another branch was added here.',
        tone: 'summary',
      });
    } else if (e.type === 'custom_message' && e.display) {
      items.push({
        kind: 'note',
        key: e.id,
        entry: e,
        text: typeof e.content === 'string' ? e.content : e.content.map((c) => ('text' in c ? c.text : '')).join(' '),
        tone: 'info',
      });
    }
  }
  // A reply that called tools is mid-turn when another reply of the same turn follows it (or is streaming).
  let later = continuing;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'user') later = false;
    else if (item.kind === 'assistant') {
      if (later && item.message.stopReason === 'toolUse') item.midTurn = true;
      later = true;
    }
  }
  return items;
}

export { resultText };
