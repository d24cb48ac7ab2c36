export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

/**
 * Keeps the head of a long output within both limits, cutting at a line boundary, and says so in a note
 * the model reads (with how to see more, when the caller knows how).
 */
export function truncateOutput(text: string, options: { maxLines?: number; maxBytes?: number; hint?: string } = {}): { text: string; truncated: boolean } {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = text.split('\n');
  if (lines.length <= maxLines && Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, truncated: false };
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (kept.length >= maxLines || bytes + size > maxBytes) break;
    kept.push(line);
    bytes += size;
  }
  const shown = kept.length;
  const note = `[Output truncated: showing ${shown} of ${lines.length} lines (limits: ${maxLines} lines, ${Math.round(maxBytes / 1024)} KB).${options.hint ? ` ${options.hint}` : ''}]`;
  return { text: `${kept.join('\n')}\n\n${note}`, truncated: true };
}

/** Cuts one long line, saying how much was left out. */
export function clipLine(line: string, max = 500): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [${line.length - max} more characters]`;
}
