import { closeSync, constants, openSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The largest Markdown file /memory import reads. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

/**
 * A file of the workspace for /memory export and import: a path relative to the workspace (or absolute)
 * whose real location, links resolved, is inside the workspace's real location. Anything else is refused
 * with a sentence; the file itself is opened without following a link (O_NOFOLLOW).
 */
export class WorkspaceFile {
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  /** For reading: the file must exist inside the workspace. */
  static existing(workspace: string, file: string): WorkspaceFile {
    const root = realRoot(workspace);
    let real: string;
    try {
      real = realpathSync(resolve(root, file));
    } catch {
      throw new Error(`There is no file ${file} in the workspace.`);
    }
    if (!inside(root, real)) throw new Error(`${file} is outside the workspace (${root}): only files inside it can be imported.`);
    return new WorkspaceFile(real);
  }

  /** For writing: its folder must exist inside the workspace. */
  static target(workspace: string, file: string): WorkspaceFile {
    const root = realRoot(workspace);
    const wanted = resolve(root, file);
    let folder: string;
    try {
      folder = realpathSync(dirname(wanted));
    } catch {
      throw new Error(`The folder of ${file} does not exist in the workspace.`);
    }
    const path = join(folder, basename(wanted));
    if (!inside(root, path)) throw new Error(`${file} is outside the workspace (${root}): memories are exported only inside it.`);
    return new WorkspaceFile(path);
  }

  read(): string {
    const fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const size = statSync(this.path).size;
      if (size > MAX_IMPORT_BYTES)
        throw new Error(`${this.path} is larger than ${MAX_IMPORT_BYTES / 1024} KB: split it, or import only the memories you want.`);
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  }

  write(text: string): void {
    const fd = openSync(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  }
}

function realRoot(workspace: string): string {
  if (!workspace || !isAbsolute(workspace)) throw new Error('No workspace folder is known yet: open a conversation first.');
  return realpathSync(workspace);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
