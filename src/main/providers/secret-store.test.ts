import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
