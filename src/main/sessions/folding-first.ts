import type Database from 'better-sqlite3';

const RUNS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * The connection as the store's statements see it: each statement prepared through it calls `fold` before it
 * runs, so that nothing reads or writes the file while entries appended to the append log are not yet in it.
 * The one place this is decided; only the fold's own statements are prepared on the bare connection.
 */
export function foldingFirst(db: Database.Database, fold: () => void): Database.Database {
  const prepare = (sql: string): Database.Statement => {
    const statement = db.prepare(sql);
    for (const name of RUNS) {
      const original = statement[name] as (...args: unknown[]) => unknown;
      Object.defineProperty(statement, name, {
        value: (...args: unknown[]) => {
          fold();
          return original.apply(statement, args);
        },
      });
    }
    return statement;
  };
  return { prepare } as unknown as Database.Database;
}
