// The wallet's keys through the whole app: a database that holds them (as older versions stored them) is
// cleaned at start, and the wallet plugin's own process still reads its keys.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type App, createApp } from '../../src/main/app.ts';
import { FileSecretStore } from '../../src/main/providers/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import { type AccountServer, OPENROUTER_PATH, startAccountServer } from './account-server.ts';
import { tempDir } from './bundled-runtime.ts';

const OPENROUTER_KEY = 'sk-or-v1-stored-in-sqlite-by-an-older-amber';

let dir: ReturnType<typeof tempDir>;
let server: AccountServer;
let app: App | null = null;

beforeEach(async () => {
  dir = tempDir('amber-wallet-secrets-');
  server = await startAccountServer();
});

afterEach(async () => {
  await app?.dispose();
  app = null;
  await server.close();
  dir.remove();
});

test('a wallet key held in the database moves to the key file at start and still reaches the wallet process', async () => {
  const db = join(dir.path, 'amber.db');
  const seeded = SessionStore.open(db);
  seeded.setSetting('plugin.wallet.config', JSON.stringify({ openrouter: { apiKey: OPENROUTER_KEY, baseUrl: server.openrouterBaseUrl } }));
  seeded.close();
  expect(readFileSync(db).includes(OPENROUTER_KEY)).toBe(true);

  app = createApp({ dataDir: dir.path, startPlugins: false, secrets: new FileSecretStore(join(dir.path, 'secrets.json'), { warn: () => {} }) });
  expect(app.sessions.getSetting('plugin.wallet.config')).not.toContain(OPENROUTER_KEY);
  expect(readFileSync(join(dir.path, 'secrets.json'), 'utf8')).toContain(OPENROUTER_KEY);

  expect((await app.plugins.setState('wallet', true)).state).toBe('active');
  // The wallet offers the account only when its config holds the key.
  expect(app.plugins.registries.wallets.list().map((w) => w.id)).toContain('openrouter');
  await app.plugins.registries.wallets.refresh('openrouter');
  expect(server.seen).toEqual([{ path: OPENROUTER_PATH, authorization: `Bearer ${OPENROUTER_KEY}` }]);

  await app.dispose();
  app = null;
  expect(readFileSync(db).includes(OPENROUTER_KEY)).toBe(false);
});
