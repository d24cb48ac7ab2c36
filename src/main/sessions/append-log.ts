import { closeSync, ftruncateSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Store instances of this process, numbering their logs apart. */
let instances = 0;

/** A line of an append log, as read back: its fields not yet checked. */
export interface LoggedLine {
  /** 1-based, for reports. */
  line: number;
  value: unknown;
}

/** What a log held: its complete lines, whether its last line was torn (no newline: cut by a crash), the lines that are not JSON. */
export interface LogContent {
  lines: LoggedLine[];
  torn: boolean;
  unreadable: number[];
}

/**
 * One store instance's append log beside the database (`amber.db-entries-<pid>-<n>`): each entry appended
 * the quick way is one JSON line, written with one `write` call before `append` returns (it survives a crash
 * of the process, as pi's appendFileSync does), until the store folds the lines into SQLite and empties it.
 * A log whose process died before its fold is replayed by the next store that opens the file.
 */
export class AppendLog {
  readonly path: string;
  #fd: number | null = null;
  /** Whether anything was written since the log was last emptied. */
  #dirty = false;

  constructor(databaseFile: string) {
    this.path = `${databaseFile}-entries-${process.pid}-${++instances}`;
  }

  write(line: string): void {
    this.#fd ??= openSync(this.path, 'a', 0o600);
    writeSync(this.#fd, line);
    this.#dirty = true;
  }

  /** Empties the log: everything in it is folded. */
  clear(): void {
    if (this.#fd === null || !this.#dirty) return;
    ftruncateSync(this.#fd, 0);
    this.#dirty = false;
  }

  /** Closes the log; `remove`: deletes its file (everything in it is folded). */
  close(remove: boolean): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
    if (remove) unlinkSync(this.path);
  }

  /**
   * The other store instances' logs beside `databaseFile` (`own`: this instance's, left out), each with
   * whether its process still runs (a log whose process died is replayed, then removed).
   */
  static others(databaseFile: string, own: string | null): { path: string; alive: boolean }[] {
    const prefix = `${basename(databaseFile)}-entries-`;
    let names: string[];
    try {
      names = readdirSync(dirname(databaseFile));
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const path = join(dirname(databaseFile), name);
      if (!name.startsWith(prefix) || path === own) return [];
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      return Number.isInteger(pid) && pid > 0 ? [{ path, alive: running(pid) }] : [];
    });
  }

  /** A log's lines, parsed; null when it is gone (another process replayed it first). */
  static read(path: string): LogContent | null {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return null;
    }
    const parts = text.split('\n');
    // The last part follows the last newline: empty, or a line the crash cut short.
    const torn = parts.pop() !== '';
    const lines: LoggedLine[] = [];
    const unreadable: number[] = [];
    parts.forEach((part, i) => {
      try {
        lines.push({ line: i + 1, value: JSON.parse(part) });
      } catch {
        unreadable.push(i + 1);
      }
    });
    return { lines, torn, unreadable };
  }

  static remove(path: string): void {
    try {
      unlinkSync(path);
    } catch {
      // Already replayed and removed by another process.
    }
  }
}

/** Whether a process of this id runs (one of another user counts as running). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
