import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { FileSecretStore } from '../providers/index.ts';
import { type SafeStorageLike, safeStorageCodec } from './safe-storage-codec.ts';

type Backend = ReturnType<NonNullable<SafeStorageLike['getSelectedStorageBackend']>>;

/** A stand-in for Electron's safeStorage: "encrypts" by prefixing v10 and reversing, like a real blob would hide the text. */
function fakeSafeStorage(backend: Backend, available = true): SafeStorageLike & { sealed: number } {
  const fake = {
    sealed: 0,
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (plain: string) => {
      fake.sealed++;
      return Buffer.concat([Buffer.from('v10'), Buffer.from([...plain].reverse().join(''))]);
    },
    decryptString: (blob: Buffer) => {
      if (blob.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return [...blob.subarray(3).toString()].reverse().join('');
    },
  };
  return fake;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-codec-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function storeWith(codec: ReturnType<typeof safeStorageCodec>, warnings: string[]): FileSecretStore {
  return new FileSecretStore(join(dir, 'secrets.json'), { codec, warn: (m) => warnings.push(m) });
}

test("Linux's basic_text backend counts as unencrypted: keys are stored plain and the warning is given once", () => {
  const safe = fakeSafeStorage('basic_text');
  const warnings: string[] = [];
  const store = storeWith(safeStorageCodec(safe, 'linux'), warnings);
  store.set('provider.openai.apiKey', 'sk-basic-1');
  store.set('provider.groq.apiKey', 'sk-basic-2');
  expect(safe.sealed).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual({ 'provider.openai.apiKey': 'sk-basic-1', 'provider.groq.apiKey': 'sk-basic-2' });
  expect(store.get('provider.groq.apiKey')).toBe('sk-basic-2');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/stored unencrypted .*No OS keychain is available/);
});

test('a key an earlier version sealed with basic_text is still read', () => {
  const safe = fakeSafeStorage('basic_text');
  const sealed = safe.encryptString('sk-old-sealed').toString('base64');
  const codec = safeStorageCodec(safe, 'linux');
  expect(codec.decode(sealed)).toBe('sk-old-sealed');
  expect(codec.decode('sk-plain')).toBe('sk-plain');
});

test('a real keychain backend seals the keys and warns of nothing', () => {
  const safe = fakeSafeStorage('gnome_libsecret');
  const warnings: string[] = [];
  const store = storeWith(safeStorageCodec(safe, 'linux'), warnings);
  store.set('provider.openai.apiKey', 'sk-sealed');
  expect(safe.sealed).toBe(1);
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain('sk-sealed');
  expect(store.get('provider.openai.apiKey')).toBe('sk-sealed');
  expect(warnings).toEqual([]);
});

test('basic_text is a Linux backend name only; elsewhere an available safeStorage seals', () => {
  const safe = fakeSafeStorage('basic_text');
  expect(safeStorageCodec(safe, 'darwin').encrypted).toBe(true);
});

test('no encryption available at all is stored plain with the same warning', () => {
  const warnings: string[] = [];
  const store = storeWith(safeStorageCodec(fakeSafeStorage('unknown', false), 'linux'), warnings);
  store.set('k', 'sk-none');
  expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual({ k: 'sk-none' });
  expect(warnings).toHaveLength(1);
});
