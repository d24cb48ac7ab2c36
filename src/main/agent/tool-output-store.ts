import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the full text of a cut tool result goes (ToolDispatcher's `outputs`). */
export interface ToolOutputKeeper {
  /** Keeps `text` for the session; resolves with where, relative to the data folder. */
  keep(sessionId: string, toolCallId: string, text: string): Promise<string>;
}

/** A file name from an id a model or a plugin chose: only safe characters, short, never `.` or `..`. */
const safeName = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'call';

/**
 * The full text of tool results that were cut, one file per call: `<dataDir>/tool-output/<session>/<call>.txt`,
 * readable only by the user (folders 0700, files 0600), never through a link (`O_NOFOLLOW`, `O_EXCL`).
 * Folders of conversations that no longer exist are removed by `sweep` (createApp runs it at start, so a
 * conversation deleted with undo keeps its outputs while undo is possible).
 */
export class ToolOutputStore implements ToolOutputKeeper {
  readonly dir: string;
  readonly name: string;

  /** `dir` is `<dataDir>/tool-output`; `name` is how the results name it (relative to the data folder). */
  constructor(dir: string, name = 'tool-output') {
    this.dir = dir;
    this.name = name;
  }

  async keep(sessionId: string, toolCallId: string, text: string): Promise<string> {
    const session = safeName(sessionId);
    const folder = join(this.dir, session);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // mkdir leaves an existing folder's mode as it was, and the umask may have loosened a new one.
    await chmod(this.dir, 0o700);
    await chmod(folder, 0o700);
    const base = safeName(toolCallId);
    // A call id may repeat (a model's ids are its own): the second one gets a suffix, never the first's file.
    for (const file of [`${base}.txt`, `${base}-${randomUUID().slice(0, 8)}.txt`]) {
      let handle;
      try {
        handle = await open(join(folder, file), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw e;
      }
      try {
        await handle.writeFile(text, 'utf8');
      } finally {
        await handle.close();
      }
      return `${this.name}/${session}/${file}`;
    }
    throw new Error('a file of that name exists already');
  }

  /** Removes the outputs of every conversation `exists` does not know. Never throws; resolves with how many went. */
  async sweep(exists: (sessionId: string) => boolean): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (exists(name)) continue;
      try {
        await rm(join(this.dir, name), { recursive: true, force: true });
        removed++;
      } catch {
        // Tried again at the next start.
      }
    }
    return removed;
  }
}
