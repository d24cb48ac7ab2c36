import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { FileSecretStore } from './secret-store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a sealing codec keeps the plain key off the disk and warns of nothing', () => {
  const warnings: string[] = [];
  const codec = { encrypted: true, encode: (v: string) => Buffer.from(v).toString('base64'), decode: (s: string) => Buffer.from(s, 'base64').toString() };
  const store = new FileSecretStore(join(dir, 'secrets.json'), { codec, warn: (m) => warnings.push(m) });
  store.set('provider.x.apiKey', 'sk-live-123');
  expect(store.get('provider.x.apiKey')).toBe('sk-live-123');
  expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain('sk-live-123');
  expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  expect(warnings).toEqual([]);
  store.set('provider.x.apiKey', null);
  expect(store.get('provider.x.apiKey')).toBeNull();
});

test('a damaged key file is reported with what to do, not thrown as a parse error', () => {
  writeFileSync(join(dir, 'secrets.json'), '{not json');
  const store = new FileSecretStore(join(dir, 'secrets.json'), { warn: () => {} });
  expect(() => store.get('k')).toThrow(/not valid JSON .*fix or delete it/);
});

test('an unchanged key file is read and unsealed once; one written since, by this store or another program, is read anew', () => {
  let unsealed = 0;
  const codec = {
    encrypted: true,
    encode: (v: string) => Buffer.from(v).toString('base64'),
    decode: (s: string) => {
      unsealed++;
      return Buffer.from(s, 'base64').toString();
    },
  };
  const file = join(dir, 'secrets.json');
  const store = new FileSecretStore(file, { codec, warn: () => {} });
  store.set('a', 'one');
  // Just written, the file is read at every get (a second write within a coarse clock's tick could look the same).
  expect([store.get('a'), store.get('a')]).toEqual(['one', 'one']);
  expect(unsealed).toBe(2);
  // An older file is read once.
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
  expect([store.get('a'), store.get('a'), store.get('b')]).toEqual(['one', 'one', null]);
  expect(unsealed).toBe(3);
  // Another program rewrites the file in place, with a value of the same length; then removes it.
  writeFileSync(file, JSON.stringify({ a: Buffer.from('six').toString('base64') }));
  expect(store.get('a')).toBe('six');
  rmSync(file);
  expect(store.get('a')).toBeNull();
});

test('the revision stays while the key file does, moves when it changes, and is unknown while the file is just written', () => {
  const file = join(dir, 'secrets.json');
  const store = new FileSecretStore(file, { warn: () => {} });
  expect(store.revision()).toBe('none');
  store.set('a', 'one');
  expect(store.revision()).toBeNull();
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
  const settled = store.revision();
  expect(settled).not.toBeNull();
  expect(store.revision()).toBe(settled);
  writeFileSync(file, JSON.stringify({ a: 'two' }));
  utimesSync(file, past, past);
  expect(store.revision()).not.toBe(settled);
  rmSync(file);
  expect(store.revision()).toBe('none');
});
