import { constants } from 'node:fs';
import { type FileHandle, lstat, open, realpath } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** A project instruction file as the system prompt carries it. */
export interface ProjectFile {
  /** Absolute path. */
  path: string;
  name: string;
  text: string;
  truncated: boolean;
  limitBytes: number;
}

export interface ProjectContext {
  files: ProjectFile[];
  gitRoot: string | null;
  /** One sentence per file left out, or per limit reached: for the log, never for the model. */
  skipped: string[];
}

/** The files read per folder, first match wins: CLAUDE.md only where there is no AGENTS.md. */
export const PROJECT_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** What is read of one file; the rest is cut, and the prompt says so. */
export const PROJECT_FILE_LIMIT_BYTES = 16 * 1024;
/** What is read of all of them; the nearest files go first, the outer ones are left out past it. */
export const PROJECT_CONTEXT_LIMIT_BYTES = 64 * 1024;
/** How long finding and reading them may take in all; past it, the files not yet read are left out. */
export const PROJECT_CONTEXT_TIMEOUT_MS = 2000;

export interface ProjectContextOptions {
  limitBytes?: number;
  totalBytes?: number;
  timeoutMs?: number;
}

class TimedOut extends Error {}

/**
 * The project's instruction files, from the git root (or the workspace itself, outside git) down to the
 * workspace folder, outermost first so the nearest has the last word. Nothing above the workspace is read
 * unless it is inside the same git repository (the nearest `.git` at or above it marks the root, and the
 * walk stops there). Read off main's thread (async file system calls) and within `timeoutMs` in all; only
 * regular files are read, opened with O_NOFOLLOW and O_NONBLOCK (a FIFO cannot hold the open) and checked
 * on the open file; a link is followed only when its real location stays in the project. Each file is cut
 * at `limitBytes`, all of them at `totalBytes`. Never throws: what is left out is said in `skipped`.
 */
export async function readProjectContext(workspace: string, options: ProjectContextOptions = {}): Promise<ProjectContext> {
  const limitBytes = options.limitBytes ?? PROJECT_FILE_LIMIT_BYTES;
  const deadline = Date.now() + (options.timeoutMs ?? PROJECT_CONTEXT_TIMEOUT_MS);
  const files: ProjectFile[] = [];
  const skipped: string[] = [];
  let gitRoot: string | null = null;
  try {
    gitRoot = await findGitRoot(workspace, deadline);
    const top = gitRoot ?? workspace;
    const folders = [top];
    const rel = relative(top, workspace);
    let dir = top;
    if (rel !== '' && !rel.startsWith('..')) for (const part of rel.split(sep)) folders.push((dir = join(dir, part)));
    const realTop = await within(realpath(top), deadline);
    let budget = options.totalBytes ?? PROJECT_CONTEXT_LIMIT_BYTES;
    // Nearest first, so that the budget goes to the files with the last word.
    for (const folder of folders.reverse()) {
      for (const name of PROJECT_FILE_NAMES) {
        const path = join(folder, name);
        if (!(await within(exists(path), deadline))) continue;
        if (budget <= 0) {
          skipped.push(`${path}: the project's instruction files already fill the ${PROJECT_CONTEXT_LIMIT_BYTES / 1024} KiB they may take`);
          break;
        }
        try {
          const limit = Math.min(limitBytes, budget);
          const read = await readInside(path, realTop, limit, deadline);
          budget -= Buffer.byteLength(read.text);
          files.unshift({ path, name, ...read, limitBytes: limit });
        } catch (e) {
          if (e instanceof TimedOut) throw e;
          skipped.push(`${path}: ${e instanceof Error ? e.message : String(e)}`);
        }
        break;
      }
    }
  } catch (e) {
    if (!(e instanceof TimedOut))
      skipped.push(`${workspace}: the project's instruction files could not be looked for (${e instanceof Error ? e.message : String(e)})`);
    else
      skipped.push(
        `${workspace}: finding and reading the project's instruction files took longer than ${Math.round((options.timeoutMs ?? PROJECT_CONTEXT_TIMEOUT_MS) / 100) / 10} s, so the files not read by then are left out`,
      );
  }
  return { files, gitRoot, skipped };
}

/** The git repository root at or above `folder` (the nearest `.git` folder or file), or null. */
export async function findGitRoot(folder: string, deadline = Date.now() + PROJECT_CONTEXT_TIMEOUT_MS): Promise<string | null> {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (await within(exists(join(dir, '.git')), deadline)) return dir;
    if (dirname(dir) === dir) return null;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Reads the start of the regular file at `path`, whose real location must be under `realTop`. */
async function readInside(path: string, realTop: string, limitBytes: number, deadline: number): Promise<{ text: string; truncated: boolean }> {
  const real = await within(realpath(path), deadline);
  if (real !== realTop && !real.startsWith(realTop + sep)) throw new Error('it leads outside the project');
  // The real path has no link left in it; O_NOFOLLOW refuses one put there since, and O_NONBLOCK keeps a
  // FIFO from holding the open until a writer comes.
  const opening = open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  let handle: FileHandle;
  try {
    handle = await within(opening, deadline);
  } catch (e) {
    // An open that finishes after the deadline is closed then.
    void opening.then((h) => h.close()).catch(() => {});
    // A socket cannot be opened at all (ENXIO).
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENXIO' || code === 'ENODEV') throw new Error('it is not a regular file', { cause: e });
    if (code === 'ELOOP') throw new Error('it became a link while it was read', { cause: e });
    throw e;
  }
  try {
    // Checked on what was opened, not on the name: a FIFO, socket or device is never read.
    if (!(await within(handle.stat(), deadline)).isFile()) throw new Error('it is not a regular file');
    const buffer = Buffer.alloc(limitBytes + 1);
    let read = 0;
    while (read <= limitBytes) {
      const { bytesRead } = await within(handle.read(buffer, read, limitBytes + 1 - read, read), deadline);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    const truncated = read > limitBytes;
    // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
    let text = buffer.subarray(0, Math.min(read, limitBytes)).toString('utf8');
    if (truncated) text = text.replace(/\uFFFD+$/, '');
    return { text, truncated };
  } finally {
    void handle.close().catch(() => {});
  }
}

/** `promise`, or a TimedOut rejection once `deadline` has passed (the operation itself goes on unheard). */
function within<T>(promise: Promise<T>, deadline: number): Promise<T> {
  const left = deadline - Date.now();
  if (left <= 0) {
    promise.catch(() => {});
    return Promise.reject(new TimedOut());
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), left);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
