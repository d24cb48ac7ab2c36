import { canonicalJson } from './canonical-json.ts';

/**
 * The chained hash of one entry: a fast, non-cryptographic 64-bit hash (two 32-bit multiply–xorshift
 * lanes over little-endian 32-bit words, mixed at the end) of the UTF-8 text
 * `len:parentHash len:id len:parentId len:type len:canonicalPayload` (lengths in UTF-16 units, no
 * spaces), so no two different field lists hash the same bytes. It makes an entry changed in place by
 * another program evident; it is no defence against someone who recomputes the chain on purpose.
 * Returned as 16 lowercase hex digits. A root's parent hash is ''.
 */
export function entryHash(parentHash: string, id: string, parentId: string | null, type: string, canonicalPayload: string): string {
  const p = parentId ?? '';
  // The payload is encoded after the short fields, not joined to them: no copy of a long string per hash.
  return hashFields(`${parentHash.length}:${parentHash}${id.length}:${id}${p.length}:${p}${type.length}:${type}${canonicalPayload.length}:`, canonicalPayload);
}

const M1 = 2654435761;
const M2 = 1597334677;
const encoder = new TextEncoder();

/** The word loop in JavaScript: the reference, and the path for texts too large for the compiled loop's memory. */
export function hashTextInJs(text: string): string {
  const bytes = new Uint8Array(text.length * 3 + 4);
  const { written } = encoder.encodeInto(text, bytes);
  let h1 = Math.imul(0xdeadbeef ^ written, M1);
  let h2 = Math.imul(0x41c6ce57 ^ written, M2);
  for (let i = 0; i < written; i += 4) {
    const k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    h1 = Math.imul(h1 ^ k, M1);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ k, M2);
    h2 ^= h2 >>> 13;
  }
  return finish(h1, h2);
}

function finish(h1: number, h2: number): string {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

// The same word loop as a tiny WebAssembly function, assembled below. Compiled to machine code when the
// module loads, it is fast from the first call; the JavaScript loop runs in the interpreter until the
// JIT warms up, which made the first context of a process ~15% slower.
const PAGE_BYTES = 65536;
const WASM_PAGES = 4;
const wasm = compileWordLoop();
/** Whether hashes come from the compiled loop (else the JavaScript one, which gives the same hashes). */
export const HASH_LOOP_COMPILED = wasm !== null;

/** The hash of `head + tail` (head ends in ':', so no character is split between the two). */
function hashFields(head: string, tail: string): string {
  if (!wasm || (head.length + tail.length) * 3 + 4 > WASM_PAGES * PAGE_BYTES) return hashTextInJs(head + tail);
  const first = encoder.encodeInto(head, wasm.bytes).written;
  const written = first + encoder.encodeInto(tail, wasm.bytes.subarray(first)).written;
  wasm.bytes[written] = 0;
  wasm.bytes[written + 1] = 0;
  wasm.bytes[written + 2] = 0;
  wasm.hash((written + 3) >> 2, Math.imul(0xdeadbeef ^ written, M1), Math.imul(0x41c6ce57 ^ written, M2));
  return finish(wasm.words[0]!, wasm.words[1]!);
}

/** A signed LEB128 number, as WebAssembly encodes i32 constants. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

/** An unsigned LEB128 number (sizes and counts). */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n ? byte | 0x80 : byte);
  } while (n);
  return out;
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function wasmName(s: string): number[] {
  return [s.length, ...[...s].map((c) => c.charCodeAt(0))];
}

/** hash(words, h1, h2): runs the loop over `words` 32-bit words at address 0, then stores h1, h2 at 0 and 4. */
function compileWordLoop(): { hash: (words: number, h1: number, h2: number) => void; bytes: Uint8Array; words: Int32Array } | null {
  const [WORDS, H1, H2, I, K] = [0, 1, 2, 3, 4];
  const lane = (h: number, m: number, shift: number): number[] => [
    0x20,
    h,
    0x20,
    K,
    0x73,
    0x41,
    ...sleb(m | 0),
    0x6c,
    0x22,
    h, // h = (h ^ k) * m
    0x20,
    h,
    0x41,
    shift,
    0x76,
    0x73,
    0x21,
    h, // h ^= h >>> shift
  ];
  const code = [
    0x01,
    0x02,
    0x7f, // two i32 locals: i, k
    0x02,
    0x40,
    0x20,
    WORDS,
    0x45,
    0x0d,
    0x00, // block; if words == 0 skip the loop
    0x03,
    0x40, // loop
    0x20,
    I,
    0x41,
    0x02,
    0x74,
    0x28,
    0x02,
    0x00,
    0x21,
    K, // k = load32(i << 2)
    ...lane(H1, M1, 15),
    ...lane(H2, M2, 13),
    0x20,
    I,
    0x41,
    0x01,
    0x6a,
    0x22,
    I,
    0x20,
    WORDS,
    0x49,
    0x0d,
    0x00, // i++; continue while i < words
    0x0b,
    0x0b, // end loop, end block
    0x41,
    0x00,
    0x20,
    H1,
    0x36,
    0x02,
    0x00, // store32(0, h1)
    0x41,
    0x00,
    0x20,
    H2,
    0x36,
    0x02,
    0x04, // store32(4, h2)
    0x0b,
  ];
  const module = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00]), // type: (i32, i32, i32) -> ()
    ...section(3, [0x01, 0x00]), // one function of that type
    ...section(5, [0x01, 0x00, WASM_PAGES]), // memory
    ...section(7, [0x02, ...wasmName('memory'), 0x02, 0x00, ...wasmName('hash'), 0x00, 0x00]),
    ...section(10, [0x01, ...uleb(code.length), ...code]),
  ];
  // The few WebAssembly names used here: Node has them, this process's type libraries do not declare them.
  const api = (
    globalThis as { WebAssembly?: { Module: new (bytes: Uint8Array) => unknown; Instance: new (m: unknown) => { exports: Record<string, unknown> } } }
  ).WebAssembly;
  if (!api) return null; // the JavaScript loop gives the same hashes
  try {
    const { exports } = new api.Instance(new api.Module(new Uint8Array(module)));
    const { buffer } = exports.memory as { buffer: ArrayBuffer };
    return { hash: exports.hash as (words: number, h1: number, h2: number) => void, bytes: new Uint8Array(buffer), words: new Int32Array(buffer) };
  } catch {
    return null;
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
