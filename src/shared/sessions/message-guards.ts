import type { AssistantMessage, Message, ToolResultMessage, Usage, UserMessage } from './entry.ts';

// `Message` keeps roles it does not know (a catch-all `role: string`), so comparing the role does not
// narrow it; these guards do, with the same comparison.

export function isUser(message: Message): message is UserMessage {
  return message.role === 'user';
}

export function isAssistant(message: Message): message is AssistantMessage {
  return message.role === 'assistant';
}

export function isToolResult(message: Message): message is ToolResultMessage {
  return message.role === 'toolResult';
}

/** The tokens an assistant reply reported; undefined for other messages and replies without usage. */
export function usageOf(message: Message): Usage | undefined {
  return isAssistant(message) ? message.usage : undefined;
}

/** A content part as any message carries it: text, image, thinking or a tool call (or one pi knows and we do not). */
export type ContentPart = { readonly type: string; readonly text?: string };

/**
 * The text parts of a message's content, joined by `separator` (default none); an image stands as
 * `image` (default nothing), every other part as nothing. A string content is its own text.
 */
export function contentText(content: string | readonly ContentPart[], options: { separator?: string; image?: string } = {}): string {
  if (typeof content === 'string') return content;
  const image = options.image ?? '';
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : c.type === 'image' ? image : '')).join(options.separator ?? '');
}
