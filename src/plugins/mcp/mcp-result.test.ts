import { expect, test } from 'vitest';
import { MAX_MCP_IMAGE_CHARS, mapCallResult, mapResourceContents, resourceImages } from './mcp-result.ts';

test('text, images, resource links and embedded resources all become text', () => {
  const out = mapCallResult({
    content: [
      { type: 'text', text: 'hello' },
      { type: 'image', mimeType: 'image/png', data: 'A'.repeat(2000) },
      { type: 'resource_link', name: 'notes', uri: 'file:///notes.md', mimeType: 'text/markdown' },
      { type: 'resource', resource: { uri: 'demo://a', text: 'inside' } },
      { type: 'resource', resource: { uri: 'demo://b', mimeType: 'application/zip', blob: 'AAAA' } },
    ],
  });
  expect(out.isError).toBe(false);
  expect(out.content[0]!.text).toBe(
    'hello\n[image: image/png, 1.5 KB]\n[resource link: notes <file:///notes.md> (text/markdown)]\n[resource <demo://a>]\ninside\n[resource <demo://b>: application/zip, 3 bytes]',
  );
});

test('isError stays an error result, and structured content stands in for missing content', () => {
  expect(mapCallResult({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({ content: [{ type: 'text', text: 'bad' }], isError: true });
  expect(mapCallResult({ content: [], structuredContent: { n: 1 } }).content[0]!.text).toBe('{"n":1}');
});

test('resource contents read as text, one per part', () => {
  expect(mapResourceContents([{ uri: 'demo://t', text: 'x' }])).toBe('[resource <demo://t>]\nx');
});

test('images (and embedded image resources) pass on as the result images, besides their note; other types and too many bytes do not', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const out = mapCallResult({
    content: [
      { type: 'image', mimeType: 'image/png', data: png },
      { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' },
      { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      { type: 'resource', resource: { uri: 'demo://shot', mimeType: 'image/jpeg', blob: '/9j/AAAA' } },
      { type: 'image', mimeType: 'image/png', data: 'A'.repeat(MAX_MCP_IMAGE_CHARS) },
    ],
  });
  expect(out.images).toEqual([
    { mimeType: 'image/png', data: png },
    { mimeType: 'image/jpeg', data: '/9j/AAAA' },
  ]);
  expect(out.content[0]!.text).toContain('[image: image/png, 70 bytes]');
  expect(mapCallResult({ content: [{ type: 'text', text: 'no pictures' }] })).not.toHaveProperty('images');
  expect(
    resourceImages([
      { uri: 'demo://p', mimeType: 'image/png', blob: png },
      { uri: 'demo://t', text: 'x' },
    ]),
  ).toEqual([{ mimeType: 'image/png', data: png }]);
});
