import { join } from 'node:path';
import { DATABASE_FILE } from './data-dir.ts';
import { SessionStore } from './sessions/index.ts';

export interface AppOptions {
  dataDir: string;
}

export interface App {
  readonly dataDir: string;
  readonly sessions: SessionStore;
  health(): { ok: true; schemaVersion: number; sessions: number; dataDir: string };
  dispose(): Promise<void>;
}

/** The composition root: both shells (Electron and headless) and the CLI build the core here. */
export function createApp(options: AppOptions): App {
  const sessions = SessionStore.open(join(options.dataDir, DATABASE_FILE));
  return {
    dataDir: options.dataDir,
    sessions,
    health: () => ({ ok: true, schemaVersion: sessions.schemaVersion, sessions: sessions.count(), dataDir: options.dataDir }),
    async dispose() {
      sessions.close();
    },
  };
}
