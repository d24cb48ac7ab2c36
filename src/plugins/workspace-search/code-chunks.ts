/** Lines in a chunk. */
export const CHUNK_LINES = 40;
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
 * A file cut into windows of CHUNK_LINES lines, each starting with the file's path so the vector knows where it
 * comes from (a file named after what it does is found by that too). Windows of blank lines are left out.
 */
export function codeChunks(path: string, text: string): CodeChunk[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const chunks: CodeChunk[] = [];
  for (let start = 0; start < lines.length && chunks.length < MAX_FILE_CHUNKS; start += CHUNK_LINES) {
    const window = lines.slice(start, start + CHUNK_LINES);
    if (window.every((line) => line.trim() === '')) continue;
    const body = `${path}\n${window.join('\n')}`;
    chunks.push({ startLine: start + 1, endLine: start + window.length, text: body.length > CHUNK_CHARS ? body.slice(0, CHUNK_CHARS) : body });
  }
  if (chunks.length === 0) chunks.push({ startLine: 1, endLine: Math.max(1, lines.length), text: path });
  return chunks;
}
