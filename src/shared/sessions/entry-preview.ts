import type { Entry, Message } from './entry.ts';

const MAX = 120;

/**
 * The text on one line (each run of white space one space, none at the ends), clipped to MAX characters with
 * an ellipsis. Reads only as far into the text as the line needs, so a long tool output costs what a short one does.
 */
function clip(text: string): string {
  for (let end = Math.min(text.length, 2 * MAX); ; end = Math.min(text.length, 4 * end)) {
    const flat = text.slice(0, end).replace(/\s+/g, ' ').trimStart();
    if (end === text.length) {
      const line = flat.trimEnd();
      return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
    }
    // All but a last space of this is how the whole text's line begins: it is longer than MAX.
    if (flat.length > MAX + 1) return `${flat.slice(0, MAX - 1)}…`;
  }
}

export function messageText(message: Message): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content as Array<Record<string, unknown>>) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (part.type === 'toolCall' && typeof part.name === 'string') parts.push(`[${part.name}]`);
  }
  return parts.join(' ');
}

/** A one-line preview of an entry for lists and the tree view. */
export function entryPreview(entry: Entry): string {
  switch (entry.type) {
    case 'message':
      return clip(messageText(entry.message));
    case 'model_change':
      return clip(`model: ${entry.provider}/${entry.modelId}`);
    case 'thinking_level_change':
      return `thinking: ${entry.thinkingLevel}`;
    case 'compaction':
    case 'branch_summary':
      return clip(entry.summary);
    case 'custom':
      return clip(`custom: ${entry.customType}`);
    case 'custom_message':
      return clip(typeof entry.content === 'string' ? entry.content : entry.content.map((c) => ('text' in c ? c.text : '')).join(' '));
    case 'label':
      return clip(entry.label ?? '(label cleared)');
    case 'session_info':
      return clip(entry.name ?? '');
  }
}

/** The role of a message entry, for the compact tree. */
export function entryRole(entry: Entry): string | null {
  return entry.type === 'message' ? entry.message.role : null;
}
