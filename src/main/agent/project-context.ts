import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
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

/** The files read per folder, first match wins: CLAUDE.md only where there is no AGENTS.md. */
export const PROJECT_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;
export const PROJECT_FILE_LIMIT_BYTES = 16 * 1024;

/** The git repository root at or above `folder` (a `.git` folder or file), or null. */
export function findGitRoot(folder: string): string | null {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The project's instruction files, from the git root (or the workspace itself, outside git) down to the
 * workspace folder, outermost first so the nearest has the last word. Only regular files whose real location
 * stays under the folder searched are read (a link to elsewhere, a FIFO or a device is skipped), each cut at
 * `limitBytes`. Never throws: an unreadable file is reported in `skipped` and left out.
 */
export function readProjectContext(workspace: string, limitBytes = PROJECT_FILE_LIMIT_BYTES): { files: ProjectFile[]; gitRoot: string | null; skipped: string[] } {
  const gitRoot = findGitRoot(workspace);
  const top = gitRoot ?? workspace;
  const folders: string[] = [];
  const rel = relative(top, workspace);
  let dir = top;
  folders.push(dir);
  if (rel !== '' && !rel.startsWith('..')) for (const part of rel.split(sep)) folders.push((dir = join(dir, part)));
  const files: ProjectFile[] = [];
  const skipped: string[] = [];
  let realTop: string;
  try {
    realTop = realpathSync.native(top);
  } catch {
    return { files, gitRoot, skipped };
  }
  for (const folder of folders) {
    for (const name of PROJECT_FILE_NAMES) {
      const path = join(folder, name);
      if (!existsSync(path)) continue;
      try {
        const real = realpathSync.native(path);
        if (real !== realTop && !real.startsWith(realTop + sep)) throw new Error('it leads outside the project');
        if (!statSync(real).isFile()) throw new Error('it is not a regular file');
        files.push({ path, name, ...readCapped(real, limitBytes), limitBytes });
      } catch (e) {
        skipped.push(`${path}: ${e instanceof Error ? e.message : String(e)}`);
      }
      break;
    }
  }
  return { files, gitRoot, skipped };
}

function readCapped(path: string, limitBytes: number): { text: string; truncated: boolean } {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(limitBytes + 1);
    const read = readSync(fd, buffer, 0, limitBytes + 1, 0);
    const truncated = read > limitBytes;
    // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
    let text = buffer.subarray(0, Math.min(read, limitBytes)).toString('utf8');
    if (truncated) text = text.replace(/\uFFFD+$/, '');
    return { text, truncated };
  } finally {
    closeSync(fd);
  }
}
