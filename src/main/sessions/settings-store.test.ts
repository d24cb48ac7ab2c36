import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SessionStore } from './session-store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-settings-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('the revision moves with every setting written here or by another connection, and stays otherwise', () => {
  const file = join(dir, 'amber.db');
  const one = SessionStore.open(file);
  const other = SessionStore.open(file);
  try {
    const start = one.settings.revision();
    one.getSetting('k');
    one.create({ title: 'not a setting, but a commit of this connection' });
    expect(one.settings.revision()).toBe(start);
    one.setSetting('k', 'v');
    const written = one.settings.revision();
    expect(written).not.toBe(start);
    one.setSetting('k', null);
    expect(one.settings.revision()).not.toBe(written);
    const before = one.settings.revision();
    other.setSetting('k', 'from another process');
    expect(one.settings.revision()).not.toBe(before);
    expect(one.getSetting('k')).toBe('from another process');
  } finally {
    one.close();
    other.close();
  }
});
