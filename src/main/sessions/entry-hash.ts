import { canonicalJson } from './canonical-json.ts';

/**
 * The chained hash of one entry: a fast, non-cryptographic 64-bit hash (two 32-bit multiply–xorshift
 * lanes, mixed at the end) of its parent's hash, its id, its parent id, its type and its canonical
 * payload, each prefixed by its length so that no two different field lists hash the same text.
 * It makes an entry changed in place by another program evident; it is no defence against someone who
 * recomputes the chain on purpose. Returned as 16 lowercase hex digits. A root's parent hash is ''.
 */
export function entryHash(parentHash: string, id: string, parentId: string | null, type: string, canonicalPayload: string): string {
  const s = new HashState();
  s.add(parentHash);
  s.add(id);
  s.add(parentId ?? '');
  s.add(type);
  s.add(canonicalPayload);
  return s.digest();
}

class HashState {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;

  add(text: string): void {
    let h1 = Math.imul(this.h1 ^ text.length, 2654435761);
    let h2 = Math.imul(this.h2 ^ text.length, 1597334677);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  digest(): string {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}

/** An entry row as stored: what its hash covers, and the hash itself. */
export interface HashedRow {
  id: string;
  parent_id: string | null;
  type: string;
  payload: string;
  hash: string;
}

/**
 * Whether the row's stored hash is the hash of its fields under `parentHash`. Payloads are stored as
 * canonical JSON, so the stored text is hashed first; only when that differs is the payload parsed and
 * made canonical (text rewritten with the same value, keys reordered, is not a change).
 */
export function entryHashMatches(parentHash: string, row: HashedRow): boolean {
  if (entryHash(parentHash, row.id, row.parent_id, row.type, row.payload) === row.hash) return true;
  let canonical: string;
  try {
    canonical = canonicalJson(JSON.parse(row.payload));
  } catch {
    return false;
  }
  return canonical !== row.payload && entryHash(parentHash, row.id, row.parent_id, row.type, canonical) === row.hash;
}
