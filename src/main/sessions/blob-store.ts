import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** A stored blob: its media type and bytes. */
export interface StoredBlob {
  mimeType: string;
  bytes: Buffer;
}

/**
 * Content-addressed blobs (images of messages and tool results) in the sessions' file: each kept once
 * under its sha-256, whatever number of entries name it. Entries hold the hash, never the bytes.
 */
export class BlobStore {
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #has: Database.Statement;
  readonly #refer: Database.Statement;
  readonly #sweep: Database.Statement;
  readonly #clock: () => number;

  constructor(db: Database.Database, clock: () => number) {
    this.#insert = db.prepare(`INSERT OR IGNORE INTO blobs (hash, mime_type, size, data, created_at) VALUES (?, ?, ?, ?, ?)`);
    this.#refer = db.prepare(`INSERT OR IGNORE INTO blob_refs (session_id, hash) VALUES (?, ?)`);
    this.#sweep = db.prepare(`DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM blob_refs)`);
    this.#get = db.prepare(`SELECT mime_type, data FROM blobs WHERE hash = ?`);
    this.#has = db.prepare(`SELECT 1 FROM blobs WHERE hash = ?`).pluck();
    this.#clock = clock;
  }

  /** Stores the bytes (once per content) and answers their hash. Call inside the entry's write transaction. */
  put(bytes: Buffer, mimeType: string): string {
    const hash = blobHash(bytes);
    this.#insert.run(hash, mimeType, bytes.length, bytes, this.#clock());
    return hash;
  }

  /** Notes that the session names these blobs (its entries' images). Call inside the entry's write transaction. */
  refer(sessionId: string, hashes: readonly string[]): void {
    for (const hash of hashes) this.#refer.run(sessionId, hash);
  }

  /**
   * Deletes the blobs no conversation names any more (their conversations were deleted); how many went. Run
   * when the file is opened, never while a deleted conversation may still be brought back in this process.
   */
  sweep(): number {
    return this.#sweep.run().changes;
  }

  get(hash: string): StoredBlob | null {
    const row = this.#get.get(hash) as { mime_type: string; data: Buffer } | undefined;
    return row ? { mimeType: row.mime_type, bytes: row.data } : null;
  }

  has(hash: string): boolean {
    return this.#has.get(hash) !== undefined;
  }
}

/** The sha-256 of the bytes, as 64 lowercase hex digits: a blob's name. */
export function blobHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
