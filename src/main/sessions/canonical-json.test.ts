import { describe, expect, test } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

describe('canonicalJson', () => {
  test('sorts keys at every depth, so key order does not change the text', () => {
    const a = { b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } };
    const b = { a: { c: 'x', d: [3, { y: 2, z: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
  });

  test('reads back as the same value JSON.stringify gives, undefined left out as it does', () => {
    const value = { s: 'quote " and \\ and \n and \u2028 and 😀', n: -0.000001, big: 1e21, t: true, f: false, z: null, u: undefined, list: [undefined, 1] };
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson(value)).not.toContain('"u"');
    expect(canonicalJson([Number.NaN, Number.POSITIVE_INFINITY])).toBe('[null,null]');
  });

  test('is idempotent through JSON.parse', () => {
    const value = { __proto__x: 1, b: [{ c: 'é', a: 0.1 + 0.2 }], a: {} };
    const once = canonicalJson(value);
    expect(canonicalJson(JSON.parse(once))).toBe(once);
  });

  test('differs when any value differs', () => {
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});
