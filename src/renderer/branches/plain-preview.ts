/**
 * A message's preview as a reader sees it once rendered: the markdown's marks taken out (fences, inline code
 * ticks, headings, emphasis, links and images down to their text, quotes and list markers), spaces folded,
 * so the tree shows words, not syntax. Not a markdown parser: a preview is a few dozen characters of text.
 */
export function plainPreview(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(^|\n)\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,:;!?]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
