import type { ToolOutput } from '../../workers/sdk/index.ts';

// An MCP tool result, as Amber's ToolOutput: text as it is; images and audio as a note with their type and
// size, and images (PNG, JPEG, WebP, GIF; embedded image resources too) also as the result's images, which
// main checks, stores and shows on the tool card, within what one message to main may carry; resource
// links and embedded resources as text. `isError` stays an error result.

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

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** Base64 characters of images one result passes on: a message to main carries at most 1 MB, with the text beside them. */
export const MAX_MCP_IMAGE_CHARS = 700_000;

/** The images among content blocks (an image block, or an embedded resource holding an image), within MAX_MCP_IMAGE_CHARS. */
export function blockImages(blocks: readonly Block[]): NonNullable<ToolOutput['images']> {
  const images: NonNullable<ToolOutput['images']> = [];
  let chars = 0;
  for (const block of blocks) {
    const r = (block.type === 'resource' ? (block['resource'] ?? {}) : block) as Block;
    const data = block.type === 'image' ? r['data'] : block.type === 'resource' ? r['blob'] : undefined;
    const mimeType = String(r['mimeType'] ?? '');
    if (typeof data !== 'string' || !IMAGE_TYPES.has(mimeType) || chars + data.length > MAX_MCP_IMAGE_CHARS || images.length >= 16) continue;
    chars += data.length;
    images.push({ data, mimeType });
  }
  return images;
}

/** A `tools/call` result as a ToolOutput. */
export function mapCallResult(result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown }): ToolOutput {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  let text = blocks.map(blockText).join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text === '' && result.toolResult !== undefined) text = JSON.stringify(result.toolResult);
  const images = blockImages(blocks);
  return { content: [{ type: 'text', text }], ...(images.length > 0 ? { images } : {}), isError: result.isError === true };
}

/** A `resources/read` result as text. */
export function mapResourceContents(contents: unknown): string {
  const list = Array.isArray(contents) ? (contents as Block[]) : [];
  return list.map((c) => blockText({ type: 'resource', resource: c })).join('\n');
}

/** The images among a `resources/read` result's contents (blobs of an image type). */
export function resourceImages(contents: unknown): NonNullable<ToolOutput['images']> {
  const list = Array.isArray(contents) ? (contents as Block[]) : [];
  return blockImages(list.map((c) => ({ type: 'resource', resource: c })));
}
