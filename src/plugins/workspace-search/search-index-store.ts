import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { identifierPartsOf } from './identifier-words.ts';
import type { SymbolGraph } from './repo-map-rank.ts';
import { IMPORTING, languageOf, type SymbolTag } from './symbol-tagger.ts';

const SCHEMA_VERSION = 5;
/** Definitions kept of one file (generated files define thousands). */
const MAX_DEFINITIONS = 2000;
/** Names one file's links in the symbol graph are kept for. */
const MAX_LINKED_NAMES = 1000;

/** What the index knows of a file: enough to tell whether it changed since it was read. */
export interface IndexedFile {
  id: number;
  size: number;
  mtimeMs: number;
}

/** A file's text as the index takes it: its UTF-8 bytes, the parts of its identifiers (see identifierPartsOf) and its symbols. */
export interface IndexedText {
  bytes: Uint8Array;
  /** The parts, as a list or already joined by spaces (as the symbol worker hands them over). */
  parts: string | readonly string[];
  symbols?: readonly SymbolTag[];
}

/** A symbol as the index holds it: a definition, or a file's references to a name (the first line, and how many). */
export interface IndexedSymbol {
  path: string;
  name: string;
  kind: 'def' | 'ref';
  type: string;
  line: number;
  count: number;
}

/** A folder to search within, as a path relative to the workspace root; null for the whole workspace. */
export type SearchScope = string | null;

const SCOPE_SQL = "(@scope IS NULL OR f.path = @scope OR substr(f.path, 1, length(@scope) + 1) = @scope || '/')";

/** A file's path as the words of the boosted path column: its folders and name, and their identifier parts. */
function pathWords(path: string): string {
  return `${path.replace(/[^\p{L}\p{N}_]+/gu, ' ')} ${identifierPartsOf(path).join(' ')}`;
}

/**
 * One workspace's search index, a cache in a SQLite file of its own: a files table (path, size, mtime) to
 * update it incrementally, an FTS5 table of words (the path boosted, identifiers split into parts) for ranked
 * search and an FTS5 trigram table for substrings. The words table keeps which column holds a word, not where
 * (detail=column): BM25 then counts a word once per column, at a third of the ranking time and half the size
 * on 20,000 files; the trigram table keeps positions, so a fragment matches as a phrase, exactly. Both full-text tables are contentless: the text stays in
 * the workspace, which results are read from and checked against. A file that cannot be read as a database
 * is deleted and made again (`rebuilt`): deleting the index loses nothing.
 */
export class SearchIndexStore {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** True when the file was unreadable and has been replaced by an empty index. */
  readonly rebuilt: boolean;
  /** Counts writes: a cache of what was read from the index is current while this has not moved. */
  generation = 0;

  private constructor(db: Database.Database, rebuilt: boolean) {
    this.#db = db;
    this.rebuilt = rebuilt;
  }

  #sql(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  static open(file: string): SearchIndexStore {
    try {
      return new SearchIndexStore(SearchIndexStore.#prepare(file), false);
    } catch (error) {
      if (!SearchIndexStore.#isCorrupt(error)) throw error;
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      return new SearchIndexStore(SearchIndexStore.#prepare(file), true);
    }
  }

  static #isCorrupt(error: unknown): boolean {
    const code = (error as { code?: string }).code ?? '';
    return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_FORMAT' || code === 'AMBER_INDEX_VERSION';
  }

  static #prepare(file: string): Database.Database {
    const fresh = !existsSync(file);
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      // A cache: a crash may lose the last writes or spoil the file, and a spoiled file is rebuilt (see open).
      db.pragma('synchronous = OFF');
      const version = Number(db.pragma('user_version', { simple: true }));
      if (version !== SCHEMA_VERSION && !(fresh || version === 0)) {
        throw Object.assign(new Error(`The search index has schema ${version}, not ${SCHEMA_VERSION}.`), { code: 'AMBER_INDEX_VERSION' });
      }
      if (version === 0) {
        db.exec(`
          CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, indexed INTEGER NOT NULL);
          CREATE VIRTUAL TABLE words USING fts5(path, body, parts, tokenize = "unicode61 tokenchars '_'", content = '', contentless_delete = 1, detail = column);
          CREATE VIRTUAL TABLE grams USING fts5(body, tokenize = 'trigram', content = '', contentless_delete = 1);
          INSERT INTO words(words, rank) VALUES('rank', 'bm25(8.0, 1.0, 1.0)');
          CREATE TABLE symbols(file_id INTEGER NOT NULL, name TEXT NOT NULL, def INTEGER NOT NULL, type TEXT NOT NULL, line INTEGER NOT NULL, count INTEGER NOT NULL);
          CREATE INDEX symbols_name ON symbols(name COLLATE NOCASE, def);
          CREATE INDEX symbols_file ON symbols(file_id);
        `);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }
      db.prepare('SELECT count(*) FROM files').get();
      db.prepare("SELECT rowid FROM words WHERE words MATCH 'x' LIMIT 1").all();
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Every file the index holds, by path relative to the root. */
  files(): Map<string, IndexedFile> {
    const rows = this.#sql('SELECT id, path, size, mtime_ms AS mtimeMs FROM files').all() as (IndexedFile & { path: string })[];
    return new Map(rows.map((r) => [r.path, { id: r.id, size: r.size, mtimeMs: r.mtimeMs }]));
  }

  get(path: string): IndexedFile | undefined {
    return this.#sql('SELECT id, size, mtime_ms AS mtimeMs FROM files WHERE path = ?').get(path) as IndexedFile | undefined;
  }

  /**
   * Records a file; with `content` (its UTF-8 bytes and its identifiers' parts) its words and trigrams are
   * indexed, without it (binary, too big) only its size and mtime. The bytes go to SQLite as they are read.
   */
  put(path: string, size: number, mtimeMs: number, content: IndexedText | null): void {
    this.generation++;
    const old = this.get(path);
    if (old) this.#dropText(old.id);
    const id = old
      ? (this.#sql('UPDATE files SET size = ?, mtime_ms = ?, indexed = ? WHERE id = ?').run(size, mtimeMs, content === null ? 0 : 1, old.id), old.id)
      : Number(
          this.#sql('INSERT INTO files(path, size, mtime_ms, indexed) VALUES (?, ?, ?, ?)').run(path, size, mtimeMs, content === null ? 0 : 1).lastInsertRowid,
        );
    if (content === null) return;
    this.#sql('INSERT INTO words(rowid, path, body, parts) VALUES (?, ?, ?, ?)').run(
      id,
      pathWords(path),
      content.bytes,
      typeof content.parts === 'string' ? content.parts : content.parts.join(' '),
    );
    this.#sql('INSERT INTO grams(rowid, body) VALUES (?, ?)').run(id, content.bytes);
    // Every definition (up to MAX_DEFINITIONS), and the references the repo map links files by, one row per name
    // (its first line and how many): in a language that imports names, the names imported; else every use.
    // Where a name is used is found from the words (searchUses), so other references are not kept.
    const linksByImport = IMPORTING.has(languageOf(path) ?? '');
    const refs = new Map<string, { tag: SymbolTag; count: number }>();
    const insert = this.#sql('INSERT INTO symbols(file_id, name, def, type, line, count) VALUES (?, ?, ?, ?, ?, ?)');
    let defs = 0;
    for (const tag of content.symbols ?? []) {
      if (tag.kind === 'def') {
        if (defs++ < MAX_DEFINITIONS) insert.run(id, tag.name, 1, tag.type, tag.line, 1);
      } else if (!linksByImport || tag.type === 'import') {
        const known = refs.get(tag.name);
        if (known) known.count++;
        else if (refs.size < MAX_LINKED_NAMES) refs.set(tag.name, { tag, count: 1 });
      }
    }
    for (const { tag, count } of refs.values()) insert.run(id, tag.name, 0, tag.type, tag.line, count);
  }

  /** Forgets a file, or a folder with everything under it. */
  remove(path: string): void {
    this.generation++;
    // What lies below `path/` sorts from `path/` up to `path0` ('0' follows '/'): a range the path index answers,
    // where a test on substr() would read every row for each file removed.
    const rows = this.#sql("SELECT id FROM files WHERE path = ? OR (path >= ? || '/' AND path < ? || '0')").all(path, path, path) as { id: number }[];
    for (const { id } of rows) {
      this.#dropText(id);
      this.#sql('DELETE FROM files WHERE id = ?').run(id);
    }
  }

  #dropText(id: number): void {
    this.#sql('DELETE FROM words WHERE rowid = ?').run(id);
    this.#sql('DELETE FROM grams WHERE rowid = ?').run(id);
    this.#sql('DELETE FROM symbols WHERE file_id = ?').run(id);
  }

  transaction(run: () => void): void {
    this.#db.transaction(run)();
  }

  /** Files matching an FTS5 query over the words, best first (BM25, the path weighing 8 times the text or its identifiers' parts). */
  searchWords(match: string, scope: SearchScope, limit: number): string[] {
    const rows = this.#db
      .prepare(`SELECT f.path FROM words JOIN files f ON f.id = words.rowid WHERE words MATCH @match AND ${SCOPE_SQL} ORDER BY words.rank LIMIT @limit`)
      .all({ match, scope, limit }) as { path: string }[];
    return rows.map((r) => r.path);
  }

  /**
   * A page of the files whose text holds an FTS5 trigram phrase, in index order from after `after` (a file's
   * id; 0 for the first page): a caller that needs only the first matches stops paging.
   */
  searchGrams(match: string, scope: SearchScope, after: number, page: number): { id: number; path: string }[] {
    return this.#sql(
      `SELECT f.id, f.path FROM grams JOIN files f ON f.id = grams.rowid WHERE grams MATCH @match AND grams.rowid > @after AND ${SCOPE_SQL} ORDER BY grams.rowid LIMIT @page`,
    ).all({ match, scope, after, page }) as { id: number; path: string }[];
  }

  /** Definitions of a name, matched exactly or, when none matches so, regardless of case; at most `limit` rows. */
  searchDefinitions(name: string, scope: SearchScope, limit: number): IndexedSymbol[] {
    const query = (exact: boolean) =>
      this.#sql(
        `SELECT f.path, s.name, s.type, s.line, s.count FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = @name COLLATE NOCASE ${exact ? 'AND s.name = @name' : ''} AND s.def = 1 AND ${SCOPE_SQL}
         ORDER BY f.path, s.line LIMIT @limit`,
      ).all({ name, scope, limit }) as Omit<IndexedSymbol, 'kind'>[];
    let rows = query(true);
    if (rows.length === 0) rows = query(false);
    return rows.map((row) => ({ ...row, kind: 'def' }));
  }

  /**
   * Every definition within a folder, and the references to names some file there defines (found from the
   * defined names through the names index: references to names defined nowhere are never read): the repo map's graph.
   */
  symbolGraph(scope: SearchScope): SymbolGraph {
    const paths = new Map<number, string>();
    const defs: SymbolGraph['defs'] = [];
    const refs: SymbolGraph['refs'] = [];
    const defRows = this.#sql(
      `SELECT s.file_id, f.path, s.name, s.type, s.line FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.def = 1 AND ${SCOPE_SQL}`,
    )
      .raw()
      .iterate({ scope }) as IterableIterator<[number, string, string, string, number]>;
    for (const [file, path, name, type, line] of defRows) {
      if (!paths.has(file)) paths.set(file, path);
      defs.push({ file, name, type, line });
    }
    const refRows = this.#sql(
      `WITH defined AS (SELECT DISTINCT s.name FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.def = 1 AND ${SCOPE_SQL})
       SELECT s.file_id, f.path, s.name, s.type, s.count FROM defined d JOIN symbols s ON s.name = d.name COLLATE NOCASE AND s.def = 0
       JOIN files f ON f.id = s.file_id WHERE s.name = d.name AND ${SCOPE_SQL}`,
    )
      .raw()
      .iterate({ scope }) as IterableIterator<[number, string, string, string, number]>;
    for (const [file, path, name, type, count] of refRows) {
      if (!paths.has(file)) paths.set(file, path);
      refs.push({ file, name, count, imported: type === 'import' });
    }
    return { paths, defs, refs };
  }

  /** Files whose text was indexed, and the index's size in bytes. */
  stats(): { files: number; bytes: number } {
    const files = (this.#sql('SELECT count(*) AS n FROM files WHERE indexed = 1').get() as { n: number }).n;
    const pages = Number(this.#db.pragma('page_count', { simple: true }));
    const size = Number(this.#db.pragma('page_size', { simple: true }));
    return { files, bytes: pages * size };
  }

  close(): void {
    if (this.#db.open) {
      try {
        this.#db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {}
      this.#db.close();
    }
  }
}
