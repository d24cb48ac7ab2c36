import { expect, test } from 'vitest';
import { isIndexDamage } from './is-index-damage.ts';

const sqliteError = (code: string) => Object.assign(new Error('database disk image is malformed'), { code });

test("SQLite's corrupt and not-a-database errors are damage; any other error, or a value that is not one, is not", () => {
  for (const code of ['SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_VTAB', 'SQLITE_NOTADB'])
    expect(isIndexDamage(sqliteError(code)), code).toBe(true);
  for (const code of ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR', 'ENOENT']) expect(isIndexDamage(sqliteError(code)), code).toBe(false);
  for (const value of [null, undefined, 'SQLITE_CORRUPT', { code: 7 }, new Error('plain')]) expect(isIndexDamage(value)).toBe(false);
});
