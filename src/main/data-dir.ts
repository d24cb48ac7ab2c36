import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
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
 * creates later the mode of the database file, so they are 0600 too. An existing folder is left as it is
 * here; `tightenDataDir` tightens the data folder at start.
 */
export function preparePrivateDatabase(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
}

/** The files in the data folder that hold conversations and keys: the key file and the database's. */
const PRIVATE_FILES = /^(secrets\.json|amber\.db(-wal|-shm|-journal)?)$/;

/**
 * Tightens an existing data folder to its owner at start, before anything in it is read: the folder to 0700
 * and the key file and database files (`secrets.json`, `amber.db`, `-wal`, `-shm`, `-journal`) to 0600,
 * each only where it is looser (an older Amber, a copied folder, a permissive umask). A folder that does
 * not exist is left for its first writer, which creates it 0700. Links inside are never followed (their
 * target may be anyone's file). Nothing to do on Windows, where modes do not say who may read. A path it
 * cannot change is reported through `warn`, never thrown: the app still starts.
 */
export function tightenDataDir(dataDir: string, options: { platform?: NodeJS.Platform; warn?: (message: string) => void } = {}): void {
  if ((options.platform ?? process.platform) === 'win32') return;
  const warn = options.warn ?? ((m: string) => console.warn(m));
  const tighten = (path: string, mode: number, current: number): void => {
    if ((current & 0o077) === 0) return;
    try {
      chmodSync(path, mode);
    } catch (e) {
      warn(
        `amber: ${path} is readable by other users and could not be made private (${e instanceof Error ? e.message : String(e)}); make it readable by you only.`,
      );
    }
  };
  let dir;
  try {
    dir = statSync(dataDir);
  } catch {
    return;
  }
  if (!dir.isDirectory()) return;
  tighten(dataDir, PRIVATE_DIR_MODE, dir.mode);
  for (const name of readdirSync(dataDir)) {
    if (!PRIVATE_FILES.test(name)) continue;
    const path = join(dataDir, name);
    const entry = lstatSync(path, { throwIfNoEntry: false });
    if (entry?.isFile()) tighten(path, PRIVATE_FILE_MODE, entry.mode);
  }
}
