import type { ApprovalFile } from '../../shared/agent/index.ts';
import { byteSize } from './output-preview.ts';

/** Lines of a change shown in the approval dialog; the rest are counted. */
const SHOWN_LINES = 16;
/** Unchanged lines kept around an edit's changed ones, so the reader sees where it lands. */
const CONTEXT = 2;

export interface DiffLine {
  mark: ' ' | '-' | '+';
  text: string;
}

/** What a file-changing call does, as the approval dialog shows it before it runs. */
export type ChangeView =
  | {
      kind: 'edit';
      path: string;
      /** The file as it is now (main's answer), when known. */
      file: ApprovalFile | undefined;
      lines: DiffLine[];
      /** Changed lines not shown. */
      more: number;
      replaceAll: boolean;
      /** Where main found the old text in the file: its first line, and how often it occurs. */
      line: number | undefined;
      occurrences: number | undefined;
    }
  | {
      kind: 'write';
      path: string;
      file: ApprovalFile | undefined;
      /** The new content's first lines. */
      lines: string[];
      /** Lines of the new content not shown. */
      more: number;
      /** The new content's size in words (`1.2 KB`, `40 bytes`). */
      size: string;
      lineCount: number;
    };

const text = (args: Record<string, unknown>, key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);

/** The file main names for `path` (resolved, so matched by its end), else the only one. */
function fileFor(path: string, files: readonly ApprovalFile[] | undefined): ApprovalFile | undefined {
  if (!files || files.length === 0) return undefined;
  const clean = path.replace(/^\.\//, '');
  return files.find((f) => f.path === path || f.path.endsWith(`/${clean}`)) ?? (files.length === 1 ? files[0] : undefined);
}

/** A line of the file around a change, shown as it is. */
const around = (l: string): DiffLine => ({ mark: ' ', text: l });

/** old → new as diff lines: the lines both share at the start and end kept as a little context, the rest − and +. */
export function diffLines(before: string, after: string): { lines: DiffLine[]; more: number } {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const changed: DiffLine[] = [...removed.map((t) => ({ mark: '-' as const, text: t })), ...added.map((t) => ({ mark: '+' as const, text: t }))];
  const shown = changed.slice(0, SHOWN_LINES);
  return {
    lines: [
      ...a.slice(Math.max(0, head - CONTEXT), head).map((t) => ({ mark: ' ' as const, text: t })),
      ...shown,
      ...(shown.length === changed.length ? a.slice(a.length - tail, a.length - tail + CONTEXT).map((t) => ({ mark: ' ' as const, text: t })) : []),
    ],
    more: changed.length - shown.length,
  };
}

/**
 * What a call's arguments say it changes: an edit (path, oldText → newText) or a whole-file write (path,
 * content), with the file as main found it when asking; null for any other call.
 */
export function changeView(args: unknown, files?: readonly ApprovalFile[]): ChangeView | null {
  if (typeof args !== 'object' || args === null) return null;
  const a = args as Record<string, unknown>;
  const path = text(a, 'path') ?? text(a, 'file_path') ?? text(a, 'filePath');
  if (path === undefined) return null;
  const oldText = text(a, 'oldText') ?? text(a, 'old_string') ?? text(a, 'old_text');
  const newText = text(a, 'newText') ?? text(a, 'new_string') ?? text(a, 'new_text');
  if (oldText !== undefined && newText !== undefined) {
    const file = fileFor(path, files);
    const diff = diffLines(oldText, newText);
    // The file's own lines around the old text, as main read them, frame the change.
    const place = file?.edit;
    const lines = place?.line !== undefined ? [...place.before.map(around), ...diff.lines, ...(diff.more === 0 ? place.after.map(around) : [])] : diff.lines;
    return {
      kind: 'edit',
      path,
      file,
      lines,
      more: diff.more,
      replaceAll: a['replaceAll'] === true || a['replace_all'] === true,
      line: place?.line,
      occurrences: place?.occurrences,
    };
  }
  const content = text(a, 'content');
  if (content === undefined) return null;
  const all = content.split('\n');
  const lines = all.slice(0, SHOWN_LINES);
  return { kind: 'write', path, file: fileFor(path, files), lines, more: all.length - lines.length, size: byteSize(content), lineCount: all.length };
}
