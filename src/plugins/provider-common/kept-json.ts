// A provider request repeats every earlier message of the conversation, and the provider's process receives
// them frozen (it keeps them for the next request to build on), so the same message objects come back every
// turn. A dialect keeps each one's encoded JSON and copies those bytes into the body, instead of serialising
// the whole conversation again each turn. V8 serialises a value on its fast path only while every string in
// it is one byte a character: one character beyond Latin-1 anywhere (Amber's system prompt has an em dash)
// sends all of it down the slow path, several times slower. Kept JSON is written in ASCII, so its bytes join
// and encode on their fast paths whatever the conversation holds.

const NOT_ASCII = /[\u0080-\uffff]/;
const NOT_ASCII_ALL = /[\u0080-\uffff]/g;
const encoder = new TextEncoder();

/** Frozen, and every object inside it too: nothing in it can change any more. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const v of Object.values(value)) if (!deeplyFrozen(v)) return false;
  return true;
}

/** JSON with every character beyond ASCII written as its `\uXXXX` escape: the same value to any JSON reader. */
function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  return NOT_ASCII.test(json) ? json.replace(NOT_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

/** The bytes of `asciiJson(value)`. */
export const jsonBytes = (value: unknown): Uint8Array<ArrayBuffer> => encoder.encode(asciiJson(value));

/** The bytes of an ASCII string (JSON punctuation, a kept key). */
export const asciiBytes = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

/** The chunks in one buffer. */
function concatBytes(chunks: readonly Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * What `make` builds from an object, kept while that object lives when it is deeply frozen (it cannot
 * change); made again each time for one that is not.
 */
export class KeptByObject<K extends object, V> {
  readonly #kept = new WeakMap<K, V>();
  readonly #make: (key: K) => V;

  constructor(make: (key: K) => V) {
    this.#make = make;
  }

  get(key: K): V {
    const kept = this.#kept.get(key);
    if (kept !== undefined) return kept;
    const made = this.#make(key);
    if (deeplyFrozen(key)) this.#kept.set(key, made);
    return made;
  }
}

/** What was last made from a text (a system prompt: a run sends the same one each turn), made again when it changes. */
export class KeptByText<V> {
  #text: string | undefined;
  #made: V | undefined;

  get(text: string, make: (text: string) => V): V {
    if (this.#text !== text || this.#made === undefined) {
      this.#made = make(text);
      this.#text = text;
    }
    return this.#made;
  }
}

/**
 * The bytes of a JSON object whose members are `fields` in their order (undefined ones left out, as
 * JSON.stringify does), each member named in `kept` written as those chunks of bytes instead of its value's
 * JSON; everything is copied once, into the one buffer returned.
 */
export function objectBytes(fields: Record<string, unknown>, kept: ReadonlyMap<string, readonly Uint8Array<ArrayBuffer>[]>): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    const bytes = kept.get(key);
    if (bytes === undefined) text += asciiJson(value);
    else {
      chunks.push(asciiBytes(text), ...bytes);
      text = '';
    }
  }
  chunks.push(asciiBytes(`${text}}`));
  return concatBytes(chunks);
}
