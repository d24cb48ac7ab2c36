// The wallet's keys through the whole app: a database that holds them (as older versions stored them) is
// cleaned at start, and the wallet plugin's own process still reads its keys.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { FileSecretStore } from '../../src/main/providers/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { type AccountServer, OPENROUTER_PATH, startAccountServer } from './account-server.ts';

const OPENROUTER_KEY = 'sk-or-v1-stored-in-sqlite-by-an-older-amber';

let server: AccountServer;
let under: AppUnderTest | null = null;

beforeEach(async () => {
  server = await startAccountServer();
});

afterEach(async () => {
  await under?.close();
  under = null;
  await server.close();
});

test('a wallet key held in the database moves to the key file at start and still reaches the wallet process', async () => {
  let seededWithKey = false;
  under = openApp({
    prefix: 'amber-wallet-secrets-',
    before: (dir) => {
      mkdirSync(join(dir, 'data'));
      const seeded = SessionStore.open(join(dir, 'data', 'amber.db'));
      seeded.setSetting('plugin.wallet.config', JSON.stringify({ openrouter: { apiKey: OPENROUTER_KEY, baseUrl: server.openrouterBaseUrl } }));
      seeded.close();
      seededWithKey = readFileSync(join(dir, 'data', 'amber.db')).includes(OPENROUTER_KEY);
    },
    app: (dir) => ({ secrets: new FileSecretStore(join(dir, 'data', 'secrets.json'), { warn: () => {} }) }),
  });
  const { app, dataDir } = under;
  const db = join(dataDir, 'amber.db');
  expect(seededWithKey).toBe(true);
  expect(app.sessions.getSetting('plugin.wallet.config')).not.toContain(OPENROUTER_KEY);
  expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toContain(OPENROUTER_KEY);

  expect((await app.plugins.setState('wallet', true)).state).toBe('active');
  // The wallet offers the account only when its config holds the key.
  expect(app.plugins.registries.wallets.list().map((w) => w.id)).toContain('openrouter');
  await app.plugins.registries.wallets.refresh('openrouter');
  expect(server.seen).toEqual([{ path: OPENROUTER_PATH, authorization: `Bearer ${OPENROUTER_KEY}` }]);

  // Closed (and its folder still there), the database file no longer holds the key.
  await app.dispose();
  expect(readFileSync(db).includes(OPENROUTER_KEY)).toBe(false);
});
