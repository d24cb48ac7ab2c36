import { type ContentPart, contentText, isAssistant, isToolResult, isUser, type Message } from '../../shared/sessions/index.ts';

/**
 * A message as one block of plain text for a compaction request: `[id] Role: text`, tool calls and results
 * named. `clip` cuts a tool result's text to that many characters (the transcript sent to classify), none
 * keeps it whole (what a compaction keeps word for word).
 */
export function compactionTranscript(message: Message, id: string, clip?: number): string {
  const lines: string[] = [];
  if (isUser(message)) lines.push(`User: ${contentText(message.content, { image: '[image]' })}`);
  else if (isAssistant(message)) {
    for (const part of message.content) {
      if (part.type === 'text' && part.text) lines.push(`Assistant: ${part.text}`);
      else if (part.type === 'toolCall') lines.push(`Assistant called ${part.name}: ${JSON.stringify(part.arguments ?? {})}`);
    }
    if (lines.length === 0) lines.push('Assistant: (no text)');
  } else if (isToolResult(message)) {
    const text = contentText(message.content, { image: '[image]' });
    const clipped = clip !== undefined && text.length > clip ? `${text.slice(0, clip)} [… ${text.length - clip} more characters]` : text;
    lines.push(`Result of ${message.toolName}${message.isError ? ' (error)' : ''}: ${clipped}`);
  } else lines.push(`${message.role}: ${otherText((message as { content?: unknown }).content)}`);
  return `[${id}] ${lines.join('\n')}`;
}

/** The text of a message of a role the app does not know: its content is whatever that role carries. */
function otherText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return contentText(content as ContentPart[], { image: '[image]' });
}
