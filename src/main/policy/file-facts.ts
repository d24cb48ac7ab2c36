import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { ApprovalFile } from '../../shared/agent/index.ts';

/** A file larger than this is not read to place an edit in it (its size is still said). */
const READ_AT_MOST = 1024 * 1024;
/** Lines shown around an edit's old text. */
const AROUND = 2;
const LINE_MAX = 400;

/** The old text of edit-shaped arguments (`oldText`, or `old_string` / `old_text` as other tools name it). */
function oldTextOf(args: unknown): string | null {
  if (typeof args !== 'object' || args === null) return null;
  const a = args as Record<string, unknown>;
  const old = a['oldText'] ?? a['old_string'] ?? a['old_text'];
  return typeof old === 'string' && old !== '' ? old : null;
}

function readText(path: string, bytes: number): string | null {
  // Non-blocking, and checked again once open: a path swapped for a FIFO after the stat cannot stall main.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return null;
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    return text.includes('\0') ? null : text;
  } finally {
    closeSync(fd);
  }
}

const clip = (l: string) => (l.length > LINE_MAX ? `${l.slice(0, LINE_MAX - 1)}…` : l);

/** Where `old` is in `text`: its first line, how often it occurs, and the lines around it. */
function place(text: string, old: string): NonNullable<ApprovalFile['edit']> {
  const at = text.indexOf(old);
  if (at < 0) return { occurrences: 0, before: [], after: [] };
  const occurrences = text.split(old).length - 1;
  const lines = text.split('\n');
  const first = text.slice(0, at).split('\n').length - 1;
  const last = first + old.split('\n').length - 1;
  return {
    line: first + 1,
    occurrences,
    before: lines.slice(Math.max(0, first - AROUND), first).map(clip),
    after: lines.slice(last + 1, last + 1 + AROUND).map(clip),
  };
}

/**
 * A file as an approval question shows it before the call: whether it exists and, for a regular file, its
 * size; for an edit (arguments with the old text), where that text is in the file (a file up to 1 MB is read
 * for it, nothing is kept). A path that cannot be read is "not there".
 */
export function fileFacts(path: string, args?: unknown): ApprovalFile {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return { path, exists: true };
    const old = oldTextOf(args);
    if (old === null || stat.size > READ_AT_MOST) return { path, exists: true, bytes: stat.size };
    const text = readText(path, stat.size);
    return text === null ? { path, exists: true, bytes: stat.size } : { path, exists: true, bytes: stat.size, edit: place(text, old) };
  } catch {
    return { path, exists: false };
  }
}
