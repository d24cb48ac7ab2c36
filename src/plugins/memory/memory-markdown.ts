import { GLOBAL_SCOPE, MAX_MEMORY_CHARS, MemoryKind, type MemoryRecord } from './memory-record.ts';

/** One memory as a Markdown file holds it. */
export interface MarkdownMemory {
  text: string;
  kind: MemoryKind;
  scope: string;
  pinned: boolean;
}

const PIN = '📌 ';
const GLOBAL_HEADING = 'Global';

/**
 * Memories as Markdown a person can read and edit: one `## <scope> · <kind>` heading per group, one `- `
 * item per memory, pinned ones marked 📌. parseMemoryMarkdown reads it back.
 */
export function memoriesToMarkdown(memories: readonly MemoryRecord[]): string {
  const groups = new Map<string, MemoryRecord[]>();
  for (const m of memories) {
    const key = `${m.scope === GLOBAL_SCOPE ? GLOBAL_HEADING : m.scope} · ${m.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const lines = ['# Memories', ''];
  for (const [heading, items] of groups) {
    lines.push(`## ${heading}`, '');
    for (const m of items) lines.push(`- ${m.pinned ? PIN : ''}${m.text.replace(/\s*\n\s*/g, ' ')}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The memories of a Markdown file as memoriesToMarkdown writes it; items before any heading are global user memories. */
export function parseMemoryMarkdown(markdown: string): MarkdownMemory[] {
  let kind: MemoryKind = 'user';
  let scope = GLOBAL_SCOPE;
  const out: MarkdownMemory[] = [];
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^##\s+(.+?)\s+·\s+(\S+)\s*$/u.exec(line);
    if (heading) {
      const parsedKind = MemoryKind.safeParse(heading[2]!.toLowerCase());
      kind = parsedKind.success ? parsedKind.data : 'user';
      scope = heading[1] === GLOBAL_HEADING ? GLOBAL_SCOPE : heading[1]!;
      continue;
    }
    const item = /^[-*]\s+(.+)$/u.exec(line);
    if (!item) continue;
    const pinned = item[1]!.startsWith(PIN.trim());
    const text = (pinned ? item[1]!.slice(PIN.trim().length) : item[1]!).trim();
    if (text !== '' && text.length <= MAX_MEMORY_CHARS) out.push({ text, kind, scope, pinned });
  }
  return out;
}
