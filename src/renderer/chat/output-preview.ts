/** Lines a folded output shows. */
export const PREVIEW_LINES = 12;
/** Characters a folded output shows: one line of minified JSON is folded too, not only many lines. */
export const PREVIEW_CHARS = 1200;
/** Characters "Show all" draws at most; the rest is left to Copy, so the page never lays out megabytes of text. */
export const SHOWN_MAX_CHARS = 1_000_000;

export interface OutputPreview {
  /** What the card draws. */
  text: string;
  /** Something is left out of `text` (a "Show all" is offered). */
  folded: boolean;
  /** What the "Show all" button says: `Show all 40 lines`, `Show all (212 KB)`. */
  showAll: string;
  /** Shown whole but too large to draw: how much was left to Copy, as a sentence. */
  cut: string | null;
}

/** 212 KB, 1.4 MB, 900 bytes, 1 byte. */
export function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The size of `text` as UTF-8, in words (bytesText). */
export function byteSize(text: string): string {
  return bytesText(new TextEncoder().encode(text).length);
}

/**
 * What a tool card draws of an output: folded to its first lines (the last ones while the call runs, as a log
 * streams in) and to PREVIEW_CHARS characters, whole when asked up to SHOWN_MAX_CHARS.
 */
export function outputPreview(output: string, options: { running?: boolean; showAll?: boolean } = {}): OutputPreview {
  const lines = output.split('\n');
  const manyLines = lines.length > PREVIEW_LINES;
  const large = output.length > PREVIEW_CHARS;
  const size = large ? byteSize(output) : '';
  const showAll = manyLines ? `Show all ${lines.length} lines${large ? ` (${size})` : ''}` : `Show all (${size})`;
  if (!manyLines && !large) return { text: output, folded: false, showAll, cut: null };
  if (options.showAll) {
    if (output.length <= SHOWN_MAX_CHARS) return { text: output, folded: true, showAll, cut: null };
    const rest = byteSize(output.slice(SHOWN_MAX_CHARS));
    return { text: output.slice(0, SHOWN_MAX_CHARS), folded: true, showAll, cut: `${rest} more are not drawn here; Copy takes the whole output (${size}).` };
  }
  const running = options.running === true;
  const kept = manyLines ? (running ? lines.slice(-PREVIEW_LINES) : lines.slice(0, PREVIEW_LINES)).join('\n') : output;
  const text = kept.length <= PREVIEW_CHARS ? kept : running ? `…${kept.slice(-PREVIEW_CHARS)}` : `${kept.slice(0, PREVIEW_CHARS)}…`;
  return { text, folded: true, showAll, cut: null };
}
