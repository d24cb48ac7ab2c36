import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Where Amber keeps its data when nothing else is said: `AMBER_DATA_DIR`, else the platform's place for
 * application data. The desktop shell passes Electron's userData folder instead.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.AMBER_DATA_DIR) return env.AMBER_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Amber');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Amber');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'amber');
}

export const DATABASE_FILE = 'amber.db';

/** Owner-only modes for what Amber keeps at rest: folders 0700, files 0600 (the data holds conversations and keys). */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Readies a database file before SQLite opens it: its folder is created 0700, and the file is created (or
 * tightened) to 0600 along with any -wal and -shm left beside it. SQLite gives the -wal and -shm files it
 * creates later the mode of the database file, so they are 0600 too. An existing folder is left as it is.
 */
export function preparePrivateDatabase(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
}
