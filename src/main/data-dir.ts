import { homedir } from 'node:os';
import { join } from 'node:path';

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
