import { describe, expect, test } from 'vitest';
import { entryHash, entryHashMatches, HASH_LOOP_COMPILED, hashTextInJs } from './entry-hash.ts';

const payload = '{"id":"e1","message":{"content":"hi","role":"user"},"parentId":"p1","type":"message"}';

describe('entryHash', () => {
  test('is 16 hex digits and the same for the same fields', () => {
    const h = entryHash('0123456789abcdef', 'e1', 'p1', 'message', payload);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(entryHash('0123456789abcdef', 'e1', 'p1', 'message', payload)).toBe(h);
  });

  test('changes when any field changes, including by one character', () => {
    const base = entryHash('0123456789abcdef', 'e1', 'p1', 'message', payload);
    const variants = [
      entryHash('0123456789abcdee', 'e1', 'p1', 'message', payload),
      entryHash('0123456789abcdef', 'e2', 'p1', 'message', payload),
      entryHash('0123456789abcdef', 'e1', 'p2', 'message', payload),
      entryHash('0123456789abcdef', 'e1', null, 'message', payload),
      entryHash('0123456789abcdef', 'e1', 'p1', 'custom', payload),
      entryHash('0123456789abcdef', 'e1', 'p1', 'message', payload.replace('hi', 'ho')),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  test('field boundaries count: moving text from one field to the next changes the hash', () => {
    expect(entryHash('', 'ab', 'c', 'message', payload)).not.toBe(entryHash('', 'a', 'bc', 'message', payload));
  });

  test('no collisions among 200,000 near-identical payloads', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(entryHash('', 'e', null, 'message', `{"n":${i}}`));
    expect(seen.size).toBe(200_000);
  });
});

/** The text entryHash hashes for parent hash 'ph', id 'id', no parent, type 'message'. */
const framed = (text: string) => `2:ph2:id0:7:message${text.length}:${text}`;

describe('the compiled loop', () => {
  test("is in use here, and gives the JavaScript loop's hash for every length, any text, and past its memory", () => {
    expect(HASH_LOOP_COMPILED).toBe(true);
    for (let n = 0; n < 600; n++) {
      let text = '';
      for (let i = 0; i < n; i++) text += String.fromCharCode(32 + ((i * 7919 + n * 31) % 3000));
      expect(entryHash('ph', 'id', null, 'message', text)).toBe(hashTextInJs(framed(text)));
    }
    const huge = `{"text":"${'é and 😀 '.repeat(40_000)}"}`;
    expect(entryHash('ph', 'id', null, 'message', huge)).toBe(hashTextInJs(framed(huge)));
    expect(entryHash('ph', 'id', null, 'message', huge)).not.toBe(entryHash('ph', 'id', null, 'message', huge.replace('😀', '😁')));
  });
});

describe('entryHashMatches', () => {
  const row = { id: 'e1', parent_id: 'p1', type: 'message', payload, hash: entryHash('ph', 'e1', 'p1', 'message', payload) };

  test('accepts the row as written, and the same value with its keys in another order', () => {
    expect(entryHashMatches('ph', row)).toBe(true);
    const reordered = '{"type":"message","parentId":"p1","message":{"role":"user","content":"hi"},"id":"e1"}';
    expect(entryHashMatches('ph', { ...row, payload: reordered })).toBe(true);
  });

  test('refuses a changed payload, a changed column, a wrong parent hash, broken JSON and an empty hash', () => {
    expect(entryHashMatches('ph', { ...row, payload: payload.replace('hi', 'hi!') })).toBe(false);
    expect(entryHashMatches('ph', { ...row, type: 'custom' })).toBe(false);
    expect(entryHashMatches('other', row)).toBe(false);
    expect(entryHashMatches('ph', { ...row, payload: '{"id":' })).toBe(false);
    expect(entryHashMatches('ph', { ...row, hash: '' })).toBe(false);
  });
});
