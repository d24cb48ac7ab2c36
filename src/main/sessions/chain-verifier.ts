import type { SessionIntegrity } from '../../shared/sessions/index.ts';
import { entryHashMatches, type HashedRow } from './entry-hash.ts';

/** Rows whose hash was found matching, by id, with every field the check covered. */
export type VerifiedRows = Map<string, { parentHash: string; hash: string; payload: string; parentId: string | null; type: string }>;

/** An entry whose path was verified (as far as a context walks: to its compaction cut), with its hash then. */
export interface PathMark {
  id: string;
  hash: string;
  depth: number;
}

/** Rows remembered as matching (about the context of a few long sessions). */
export const VERIFIED_ROWS_LIMIT = 50_000;

export function integrityOf(changed: Iterable<string>): SessionIntegrity {
  const ids = [...new Set(changed)];
  return { ok: ids.length === 0, changed: ids };
}

/**
 * Verifies a path fed nearest first (leaf upward): each row's hash is checked once its parent's stored
 * hash is known; `finish` checks the topmost row against the hash of the parent above the walk.
 */
export class ChainVerifier {
  readonly changed: string[] = [];
  /** Rows whose hash was checked and matched (rows above a reached mark are not checked, so not here). */
  readonly intact = new Set<string>();
  #pending: HashedRow | null = null;
  #reachedMark = false;
  readonly #matched: VerifiedRows | undefined;
  readonly #mark: PathMark | null;

  /**
   * `matched` remembers rows that matched, so that the same bytes under the same parent hash are not hashed
   * again. `mark`: an entry whose path was verified before; reached with the same hash, it and every row above
   * it are taken as verified (the row below is still checked against its hash).
   */
  constructor(matched?: VerifiedRows, mark: PathMark | null = null) {
    this.#matched = matched;
    this.#mark = mark;
  }

  /** Whether the walk reached the mark: nothing above it needs reading. */
  get reachedMark(): boolean {
    return this.#reachedMark;
  }

  push(row: HashedRow): void {
    if (this.#reachedMark) return;
    if (this.#pending && !this.#matches(row.hash, this.#pending)) this.changed.push(this.#pending.id);
    this.#pending = row;
    if (this.#mark && row.id === this.#mark.id && row.hash === this.#mark.hash) {
      this.#reachedMark = true;
      this.#pending = null;
    }
  }

  finish(parentHash: (id: string) => string): string[] {
    const top = this.#pending;
    if (top && !this.#matches(top.parent_id === null ? '' : parentHash(top.parent_id), top)) this.changed.push(top.id);
    this.#pending = null;
    return this.changed;
  }

  /** Whether `row` matches under `parentHash`, without counting it as changed when not (rows above the mark). */
  matches(parentHash: string, row: HashedRow): boolean {
    return this.#matches(parentHash, row);
  }

  // The check is a function of the row's fields and its parent's hash only: a row seen matching with exactly
  // these (id, parent id, type, payload bytes, hash, parent hash) matches again.
  #matches(parentHash: string, row: HashedRow): boolean {
    const seen = this.#matched?.get(row.id);
    if (
      seen &&
      seen.parentHash === parentHash &&
      seen.hash === row.hash &&
      seen.payload === row.payload &&
      seen.parentId === row.parent_id &&
      seen.type === row.type
    ) {
      this.intact.add(row.id);
      return true;
    }
    const ok = entryHashMatches(parentHash, row);
    if (ok) this.intact.add(row.id);
    if (ok && this.#matched) {
      if (this.#matched.size >= VERIFIED_ROWS_LIMIT) this.#matched.clear();
      this.#matched.set(row.id, { parentHash, hash: row.hash, payload: row.payload, parentId: row.parent_id, type: row.type });
    }
    return ok;
  }
}

/**
 * Verifies whole sessions fed in creation order (parents before children, as Amber writes them); a row
 * stored before its parent is checked at `finish`. `hashes` may start from a verified mark: the stored
 * hashes of rows already verified that later rows hang from.
 */
export class TreeVerifier {
  readonly changed: string[] = [];
  readonly #hashes: Map<string, string>;
  readonly #later: HashedRow[] = [];
  #count = 0;

  constructor(hashes: Map<string, string> = new Map()) {
    this.#hashes = hashes;
  }

  get count(): number {
    return this.#count;
  }

  push(row: HashedRow): void {
    this.#count++;
    this.#hashes.set(row.id, row.hash);
    if (row.parent_id !== null && !this.#hashes.has(row.parent_id)) this.#later.push(row);
    else if (!entryHashMatches(row.parent_id === null ? '' : this.#hashes.get(row.parent_id)!, row)) this.changed.push(row.id);
  }

  /** `parentHash` reads the stored hash of a parent not seen in this pass. */
  finish(parentHash: (id: string) => string = () => ''): string[] {
    for (const row of this.#later.splice(0)) {
      if (!entryHashMatches(this.#hashes.get(row.parent_id!) ?? parentHash(row.parent_id!), row)) this.changed.push(row.id);
    }
    return this.changed;
  }
}
