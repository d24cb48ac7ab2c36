// What Amber leaves on disk is for its owner only: the data folder 0700, the database and its -wal/-shm
// files, the key file and exported sessions 0600 — whatever the process umask allows; a data folder found
// looser at start is tightened.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli } from '../src/main/cli/run-cli.ts';
import { tightenDataDir } from '../src/main/data-dir.ts';
import { FileSecretStore } from '../src/main/providers/index.ts';
import { SessionStore } from '../src/main/sessions/index.ts';
import { type AppUnderTest, openApp } from './fixtures/app-under-test.ts';

let dir: string;
let under: AppUnderTest | null = null;
let umask: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-at-rest-'));
  // A permissive umask: the modes must come from Amber, not from the environment.
  umask = process.umask(0o002);
});

afterEach(async () => {
  process.umask(umask);
  await under?.close();
  under = null;
  rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string): number => statSync(path).mode & 0o777;

test('a new data folder is 0700 and the database with its -wal and -shm files is 0600', () => {
  under = openApp({ prefix: 'amber-at-rest-', app: (d) => ({ dataDir: join(d, 'nested', 'data') }) });
  const { dataDir } = under;
  under.app.sessions.create({ title: 'written' });
  expect(mode(dataDir)).toBe(0o700);
  const db = join(dataDir, 'amber.db');
  expect(existsSync(`${db}-wal`)).toBe(true);
  expect(existsSync(`${db}-shm`)).toBe(true);
  expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual([0o600, 0o600, 0o600]);
});

test('an existing data folder left open to others is tightened at start: the folder 0700, the key file and database files 0600', () => {
  let before = -1;
  under = openApp({
    prefix: 'amber-at-rest-',
    before: (d) => {
      const dataDir = join(d, 'data');
      mkdirSync(dataDir);
      chmodSync(dataDir, 0o755);
      SessionStore.open(join(dataDir, 'amber.db')).close();
      const loose: Record<string, number> = { 'amber.db': 0o644, 'amber.db-wal': 0o666, 'amber.db-journal': 0o640, 'secrets.json': 0o644, 'mcp.json': 0o644 };
      for (const [name, m] of Object.entries(loose)) {
        if (!existsSync(join(dataDir, name))) writeFileSync(join(dataDir, name), name === 'secrets.json' || name === 'mcp.json' ? '{}' : '');
        chmodSync(join(dataDir, name), m);
      }
      before = mode(dataDir);
    },
  });
  const { dataDir } = under;
  expect(before).toBe(0o755);
  expect(mode(dataDir)).toBe(0o700);
  for (const name of ['amber.db', 'amber.db-wal', 'amber.db-journal', 'secrets.json']) expect(mode(join(dataDir, name)), name).toBe(0o600);
  // Only the files named as private are changed.
  expect(mode(join(dataDir, 'mcp.json'))).toBe(0o644);
});

test('tightening leaves a missing data folder, Windows and an already private folder alone, and never follows a link', () => {
  const warnings: string[] = [];
  const warn = (m: string) => void warnings.push(m);
  tightenDataDir(join(dir, 'missing'), { warn });
  expect(existsSync(join(dir, 'missing'))).toBe(false);
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o755);
  tightenDataDir(dataDir, { platform: 'win32', warn });
  expect(mode(dataDir)).toBe(0o755);
  // A link in the data folder is not followed: what it leads to is not Amber's to change.
  const elsewhere = join(dir, 'elsewhere.json');
  writeFileSync(elsewhere, '{}');
  chmodSync(elsewhere, 0o644);
  symlinkSync(elsewhere, join(dataDir, 'secrets.json'));
  tightenDataDir(dataDir, { warn });
  expect(mode(dataDir)).toBe(0o700);
  expect(mode(elsewhere)).toBe(0o644);
  // A folder already private is left as it is, even stricter than 0700.
  chmodSync(dataDir, 0o500);
  tightenDataDir(dataDir, { warn });
  expect(mode(dataDir)).toBe(0o500);
  expect(warnings).toEqual([]);
  chmodSync(dataDir, 0o700);
});

test('a database left readable by others is tightened to 0600 when it is opened', () => {
  const dataDir = join(dir, 'data');
  SessionStore.open(join(dataDir, 'amber.db')).close();
  chmodSync(join(dataDir, 'amber.db'), 0o644);
  writeFileSync(join(dataDir, 'amber.db-wal'), '');
  chmodSync(join(dataDir, 'amber.db-wal'), 0o644);
  const store = SessionStore.open(join(dataDir, 'amber.db'));
  store.create({ title: 'after' });
  expect(mode(join(dataDir, 'amber.db'))).toBe(0o600);
  expect(mode(join(dataDir, 'amber.db-wal'))).toBe(0o600);
  expect(mode(join(dataDir, 'amber.db-shm'))).toBe(0o600);
  store.close();
});

test('the key file is 0600 and a folder it creates is 0700', () => {
  const store = new FileSecretStore(join(dir, 'keys', 'secrets.json'), { warn: () => {} });
  store.set('provider.x.apiKey', 'sk-1');
  expect(mode(join(dir, 'keys'))).toBe(0o700);
  expect(mode(join(dir, 'keys', 'secrets.json'))).toBe(0o600);
});

test('an exported session is 0600, new or overwritten', async () => {
  const dataDir = join(dir, 'data');
  const seeded = SessionStore.open(join(dataDir, 'amber.db'));
  const { id } = seeded.create({ title: 'exported' });
  seeded.close();
  const out = join(dir, 'session.jsonl');
  const io = { stdout: { write: () => true }, stderr: { write: (t: string) => process.stderr.write(t) } };
  expect(await runCli(['export-pi', id, out, '--data-dir', dataDir], io)).toBe(0);
  expect(mode(out)).toBe(0o600);
  chmodSync(out, 0o644);
  expect(await runCli(['export-pi', id, out, '--force', '--data-dir', dataDir], io)).toBe(0);
  expect(mode(out)).toBe(0o600);
});
