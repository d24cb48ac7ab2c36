import type { ToolOutput } from '../../workers/sdk/index.ts';

// An MCP tool result, as Amber's text-only ToolOutput: text as it is; images and audio as a note with
// their type and size; resource links and embedded resources as text. `isError` stays an error result.

type Block = { type?: unknown; [key: string]: unknown };

const size = (base64: unknown) => {
  const bytes = typeof base64 === 'string' ? Math.floor((base64.replace(/=+$/, '').length * 3) / 4) : 0;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
};

/** One content block as text. */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return String(block['text'] ?? '');
    case 'image':
    case 'audio':
      return `[${block.type}: ${String(block['mimeType'] ?? 'unknown type')}, ${size(block['data'])}]`;
    case 'resource_link':
      return `[resource link: ${String(block['name'] ?? '')} <${String(block['uri'] ?? '')}>${block['mimeType'] ? ` (${String(block['mimeType'])})` : ''}]`;
    case 'resource': {
      const r = (block['resource'] ?? {}) as Block;
      if (typeof r['text'] === 'string') return `[resource <${String(r['uri'] ?? '')}>]\n${r['text']}`;
      return `[resource <${String(r['uri'] ?? '')}>: ${String(r['mimeType'] ?? 'binary')}, ${size(r['blob'])}]`;
    }
    default:
      return `[${String(block.type)} content]`;
  }
}

/** A `tools/call` result as a ToolOutput. */
export function mapCallResult(result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown }): ToolOutput {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  let text = blocks.map(blockText).join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text === '' && result.toolResult !== undefined) text = JSON.stringify(result.toolResult);
  return { content: [{ type: 'text', text }], isError: result.isError === true };
}

/** A `resources/read` result as text. */
export function mapResourceContents(contents: unknown): string {
  const list = Array.isArray(contents) ? (contents as Block[]) : [];
  return list.map((c) => blockText({ type: 'resource', resource: c })).join('\n');
}
