/** Lines in a chunk at most. */
export const CHUNK_LINES = 40;
/** Lines a chunk holds at least before it may end where a definition starts. */
const MIN_CHUNK_LINES = 12;
/** Characters of a chunk sent to be embedded (the rest of a chunk with very long lines is left out). */
export const CHUNK_CHARS = 2000;
/** Chunks kept of one file (8,000 lines at 40 a chunk): the rest of a longer file is not embedded. */
export const MAX_FILE_CHUNKS = 200;

/** A piece of a file to embed: its 1-based first and last lines, and the text sent (the path first, then the lines). */
export interface CodeChunk {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * A file cut into windows of at most CHUNK_LINES lines, each starting with the file's path so the vector knows where
 * it comes from (a file named after what it does is found by that too). Where the index knows the file's
 * definitions (`definitions`: their 1-based first lines), a window ends before the last definition that starts
 * after its first MIN_CHUNK_LINES lines, so a function tends to begin a chunk of its own. Windows of blank lines are
 * left out.
 */
export function codeChunks(path: string, text: string, definitions: readonly number[] = []): CodeChunk[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const breaks = [...new Set(definitions)].filter((line) => Number.isInteger(line) && line > 1).sort((a, b) => a - b);
  const chunks: CodeChunk[] = [];
  for (let start = 0, end = 0; start < lines.length && chunks.length < MAX_FILE_CHUNKS; start = end) {
    end = Math.min(lines.length, start + CHUNK_LINES);
    // A definition on 1-based line b starts at index b - 1: the window ends before it.
    const cut = breaks.findLast((b) => b - 1 >= start + MIN_CHUNK_LINES && b - 1 < end);
    if (cut !== undefined && end < lines.length) end = cut - 1;
    const window = lines.slice(start, end);
    if (window.every((line) => line.trim() === '')) continue;
    const body = `${path}\n${window.join('\n')}`;
    chunks.push({ startLine: start + 1, endLine: end, text: body.length > CHUNK_CHARS ? body.slice(0, CHUNK_CHARS) : body });
  }
  if (chunks.length === 0) chunks.push({ startLine: 1, endLine: Math.max(1, lines.length), text: path });
  return chunks;
}
