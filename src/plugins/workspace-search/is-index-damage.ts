/**
 * True for what SQLite throws when an index file turns out damaged while in use (a page spoiled on disk, or the
 * file no longer a database): past what opening it checks, which rebuilds such a file at once.
 */
export function isIndexDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}
