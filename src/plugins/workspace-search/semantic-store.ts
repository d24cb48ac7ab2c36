import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { SearchScope } from './search-index-store.ts';

/** This store's own tables' version, kept in `semantic_meta` (the lexical index's user_version is not ours). */
const SEMANTIC_VERSION = '1';
/** The most neighbours one KNN query asks sqlite-vec for (its own limit is 4,096). */
export const MAX_NEIGHBOURS = 1000;
/** Neighbours read when a search is within a folder, before the folder's are kept (sqlite-vec's own limit). */
const SCOPED_NEIGHBOURS = 4096;

/** What the vectors know of a file: enough to tell whether it changed since it was embedded. */
export interface EmbeddedFile {
  size: number;
  mtimeMs: number;
  /** The sha-256 of its text: a file touched but not changed is not embedded again. */
  hash: string;
}

/** A chunk with its vector, as written. */
export interface ChunkVector {
  startLine: number;
  endLine: number;
  vector: Float32Array;
}

/** A chunk found near a query: its file, lines and cosine distance (0 the same direction, 2 the opposite). */
export interface ChunkHit {
  path: string;
  startLine: number;
  endLine: number;
  distance: number;
}

/** Thrown when a vector's length differs from the vectors stored: the caller says so and stops. */
export class DimensionMismatch extends Error {
  readonly stored: number;
  readonly given: number;
  constructor(stored: number, given: number) {
    super(
      `The embeddings endpoint answered vectors of ${given} dimensions, and the index holds vectors of ${stored}: Rebuild the index to make them all again.`,
    );
    this.stored = stored;
    this.given = given;
  }
}

/**
 * The semantic half of a workspace's index: chunk vectors in the same SQLite file as the words (a second
 * connection, with sqlite-vec loaded), in tables of its own — `semantic_files` (what was embedded, by path, with
 * size, mtime and hash), `semantic_chunks` (a chunk's id and path) and `semantic_vectors` (a vec0 table, cosine,
 * made at the first vector with its length, the path a metadata column for scoped searches). Which files to embed
 * is read from the lexical index's `files` table. A change of model (`useModel`) drops every vector.
 */
export class SemanticStore {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  private constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Opens the index file's semantic tables (made when missing); `loadVec` loads sqlite-vec into the connection (a seam). */
  static open(file: string, loadVec: (db: Database.Database) => void = sqliteVec.load): SemanticStore {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 2000');
      db.pragma('synchronous = OFF');
      loadVec(db);
      db.exec('CREATE TABLE IF NOT EXISTS semantic_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      const version = (db.prepare("SELECT value FROM semantic_meta WHERE key = 'version'").get() as { value: string } | undefined)?.value;
      if (version !== SEMANTIC_VERSION) {
        db.exec(`
          DROP TABLE IF EXISTS semantic_vectors; DROP TABLE IF EXISTS semantic_chunks; DROP TABLE IF EXISTS semantic_files;
          DELETE FROM semantic_meta;
          CREATE TABLE semantic_files(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, hash TEXT NOT NULL);
          CREATE TABLE semantic_chunks(id INTEGER PRIMARY KEY, path TEXT NOT NULL);
          CREATE INDEX semantic_chunks_path ON semantic_chunks(path);
        `);
        db.prepare("INSERT INTO semantic_meta(key, value) VALUES ('version', ?)").run(SEMANTIC_VERSION);
      }
      return new SemanticStore(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #sql(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #meta(key: string): string | null {
    return (this.#sql('SELECT value FROM semantic_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
  }

  #setMeta(key: string, value: string | null): void {
    if (value === null) this.#sql('DELETE FROM semantic_meta WHERE key = ?').run(key);
    else this.#sql('INSERT INTO semantic_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** The length of the stored vectors, or null before the first. */
  get dimensions(): number | null {
    const value = this.#meta('dimensions');
    return value === null ? null : Number(value);
  }

  /** Keeps the vectors when they were made with `modelKey`; else drops them all (true) and records it. */
  useModel(modelKey: string): boolean {
    if (this.#meta('model') === modelKey) return false;
    this.#db.transaction(() => {
      this.#db.exec('DROP TABLE IF EXISTS semantic_vectors; DELETE FROM semantic_chunks; DELETE FROM semantic_files;');
      this.#setMeta('dimensions', null);
      this.#setMeta('model', modelKey);
    })();
    this.#statements.clear();
    return true;
  }

  /** The files the lexical index read the text of (not binary, not too big), by path: what should have vectors. */
  lexicalFiles(): Map<string, { size: number; mtimeMs: number }> {
    try {
      const rows = this.#sql('SELECT path, size, mtime_ms AS mtimeMs FROM files WHERE indexed = 1').all() as { path: string; size: number; mtimeMs: number }[];
      return new Map(rows.map((r) => [r.path, { size: r.size, mtimeMs: r.mtimeMs }]));
    } catch {
      // No lexical tables yet (a fresh file): nothing to embed.
      return new Map();
    }
  }

  /** The first lines of a file's definitions as the lexical index found them (empty when it has none, or no symbols table). */
  definitionLines(path: string): number[] {
    try {
      const rows = this.#sql('SELECT DISTINCT s.line FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.def = 1 ORDER BY s.line').all(
        path,
      ) as {
        line: number;
      }[];
      return rows.map((r) => r.line);
    } catch {
      return [];
    }
  }

  embeddedFiles(): Map<string, EmbeddedFile> {
    const rows = this.#sql('SELECT path, size, mtime_ms AS mtimeMs, hash FROM semantic_files').all() as (EmbeddedFile & { path: string })[];
    return new Map(rows.map((r) => [r.path, { size: r.size, mtimeMs: r.mtimeMs, hash: r.hash }]));
  }

  /** Replaces a file's chunks and vectors in one transaction. Throws DimensionMismatch when a vector's length differs from the stored ones. */
  putFile(path: string, file: EmbeddedFile, chunks: readonly ChunkVector[]): void {
    this.#db.transaction(() => {
      let dims = this.dimensions;
      for (const chunk of chunks) {
        if (dims === null) {
          dims = chunk.vector.length;
          this.#db.exec(
            `CREATE VIRTUAL TABLE semantic_vectors USING vec0(embedding float[${dims}] distance_metric=cosine, path text, +start_line integer, +end_line integer)`,
          );
          this.#setMeta('dimensions', String(dims));
        } else if (chunk.vector.length !== dims) throw new DimensionMismatch(dims, chunk.vector.length);
      }
      this.#dropChunks(path);
      const insertChunk = this.#sql('INSERT INTO semantic_chunks(path) VALUES (?)');
      for (const chunk of chunks) {
        const id = BigInt(insertChunk.run(path).lastInsertRowid);
        this.#sql('INSERT INTO semantic_vectors(rowid, embedding, path, start_line, end_line) VALUES (?, ?, ?, ?, ?)').run(
          id,
          chunk.vector,
          path,
          BigInt(chunk.startLine),
          BigInt(chunk.endLine),
        );
      }
      this.#sql(
        'INSERT INTO semantic_files(path, size, mtime_ms, hash) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash',
      ).run(path, file.size, file.mtimeMs, file.hash);
    })();
  }

  /** Records a file's new size and mtime when its text (its hash) is what was embedded. */
  touchFile(path: string, size: number, mtimeMs: number): void {
    this.#sql('UPDATE semantic_files SET size = ?, mtime_ms = ? WHERE path = ?').run(size, mtimeMs, path);
  }

  removeFile(path: string): void {
    this.#db.transaction(() => {
      this.#dropChunks(path);
      this.#sql('DELETE FROM semantic_files WHERE path = ?').run(path);
    })();
  }

  #dropChunks(path: string): void {
    const ids = this.#sql('SELECT id FROM semantic_chunks WHERE path = ?').all(path) as { id: number }[];
    if (ids.length === 0) return;
    const drop = this.#sql('DELETE FROM semantic_vectors WHERE rowid = ?');
    for (const { id } of ids) drop.run(BigInt(id));
    this.#sql('DELETE FROM semantic_chunks WHERE path = ?').run(path);
  }

  /** The `k` chunks nearest to `vector` (cosine), nearest first, within a folder (or a file) when `scope` names one. */
  nearest(vector: Float32Array, scope: SearchScope, k: number): ChunkHit[] {
    const dims = this.dimensions;
    if (dims === null) return [];
    if (vector.length !== dims) throw new DimensionMismatch(dims, vector.length);
    const take = Math.max(1, Math.min(k, MAX_NEIGHBOURS));
    const select = 'SELECT path, start_line AS startLine, end_line AS endLine, distance FROM semantic_vectors WHERE embedding MATCH @vector AND k = @k';
    if (scope === null) return this.#sql(`${select} ORDER BY distance`).all({ vector, k: take }) as ChunkHit[];
    // sqlite-vec cannot filter a long text column by range: within a folder, the nearest SCOPED_NEIGHBOURS chunks of
    // the whole workspace are read and the folder's kept.
    const rows = this.#sql(`${select} ORDER BY distance`).all({ vector, k: SCOPED_NEIGHBOURS }) as ChunkHit[];
    return rows.filter((r) => r.path === scope || r.path.startsWith(`${scope}/`)).slice(0, take);
  }

  /** Files with vectors, and chunks. */
  counts(): { files: number; chunks: number } {
    const files = (this.#sql('SELECT count(*) AS n FROM semantic_files').get() as { n: number }).n;
    const chunks = (this.#sql('SELECT count(*) AS n FROM semantic_chunks').get() as { n: number }).n;
    return { files, chunks };
  }

  /** Moves when another connection (the lexical index) commits a change to the file. */
  dataVersion(): number {
    return Number(this.#db.pragma('data_version', { simple: true }));
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
