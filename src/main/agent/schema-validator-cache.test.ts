import { describe, expect, test } from 'vitest';
import { SchemaValidatorCache } from './schema-validator-cache.ts';

const schemaNo = (i: number) => ({ type: 'object', properties: { [`p${i}`]: { type: 'string' } }, required: [`p${i}`] });
const validatorOf = (cache: SchemaValidatorCache, schema: Record<string, unknown>) => {
  const compiled = cache.compile(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.validate;
};

describe('SchemaValidatorCache', () => {
  test('thousands of distinct schemas never grow it past its capacity; the least recently used go first', () => {
    const cache = new SchemaValidatorCache({ capacity: 256 });
    const first = validatorOf(cache, schemaNo(0));
    const kept = validatorOf(cache, schemaNo(1));
    for (let i = 2; i < 3000; i++) {
      validatorOf(cache, schemaNo(i));
      // Used again and again, so it stays while thousands of others come and go.
      expect(validatorOf(cache, schemaNo(1))).toBe(kept);
      expect(cache.size).toBeLessThanOrEqual(256);
    }
    expect(cache.size).toBe(256);
    expect(validatorOf(cache, schemaNo(1))).toBe(kept);
    // The first was evicted: asking again compiles it anew, and it still validates.
    const again = validatorOf(cache, schemaNo(0));
    expect(again).not.toBe(first);
    expect(again({ p0: 'x' })).toBe(true);
    expect(again({})).toBe(false);
  });

  test('the same schema text is compiled once', () => {
    const cache = new SchemaValidatorCache();
    expect(validatorOf(cache, schemaNo(7))).toBe(validatorOf(cache, structuredClone(schemaNo(7))));
    expect(cache.size).toBe(1);
  });

  test("a tool's own schema object, checked on every call, is keyed once; once evicted it is checked and keyed again", () => {
    const cache = new SchemaValidatorCache({ capacity: 2 });
    const keyed: unknown[] = [];
    const keyOf = (schema: Record<string, unknown>) => (keyed.push(schema), JSON.stringify(schema));
    const spec = schemaNo(1);
    const first = cache.compile(spec, keyOf);
    for (let i = 0; i < 5; i++) expect(cache.compile(spec, keyOf)).toBe(first);
    expect(keyed).toEqual([spec]);
    // A copy with the same text is keyed (it is another object) and gets the same validator.
    expect(cache.compile(structuredClone(spec), keyOf)).toBe(first);
    expect(keyed).toHaveLength(2);
    // Two other schemas push it out: the same object is then keyed and compiled anew.
    cache.compile(schemaNo(2), keyOf);
    cache.compile(schemaNo(3), keyOf);
    const again = cache.compile(spec, keyOf);
    expect(again).not.toBe(first);
    expect(keyed.filter((k) => k === spec)).toHaveLength(2);
    expect(again.ok && again.validate({ p1: 'x' })).toBe(true);
  });

  test('a schema ajv cannot compile is an answer for that schema alone', () => {
    const cache = new SchemaValidatorCache();
    const bad = cache.compile({ type: 'object', properties: { a: { $ref: 'https://example.invalid/elsewhere.json' } } });
    expect(bad).toMatchObject({ ok: false, reason: expect.stringMatching(/^its parameter schema is invalid \(can't resolve reference/) });
    expect(cache.compile({ type: 'nonsense' })).toMatchObject({ ok: false });
    expect(validatorOf(cache, schemaNo(1))({ p1: 'x' })).toBe(true);
  });

  test('a schema deeper or longer than the caps is refused without being compiled or kept', () => {
    const cache = new SchemaValidatorCache({ limits: { depth: 8, bytes: 1000, nodes: 20 } });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10; i++) deep = { type: 'array', items: deep };
    expect(cache.compile(deep)).toEqual({ ok: false, reason: 'its parameter schema is nested more than 8 levels deep' });
    expect(cache.compile({ type: 'string', description: 'x'.repeat(2000) })).toEqual({
      ok: false,
      reason: 'its parameter schema is longer than 1,000 bytes as JSON',
    });
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, {}])) };
    expect(cache.compile(wide)).toEqual({ ok: false, reason: 'its parameter schema has more than 20 objects and arrays' });
    expect(cache.size).toBe(0);
  });

  test('a cyclic schema is refused before anything walks it without bound', () => {
    const cache = new SchemaValidatorCache();
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    let keyed = 0;
    expect(cache.compile(cyclic, (s) => (keyed++, JSON.stringify(s)))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/nested more than 32 levels/),
    });
    expect(keyed).toBe(0);
  });

  test("two plugins' schemas with the same $id both compile: one cannot keep the other's tool from being called", () => {
    const cache = new SchemaValidatorCache();
    const a = validatorOf(cache, { $id: 'https://example.com/args', type: 'object', required: ['a'] });
    const b = validatorOf(cache, { $id: 'https://example.com/args', type: 'object', required: ['b'] });
    expect([a({ a: 1 }), a({ b: 1 }), b({ b: 1 }), b({ a: 1 })]).toEqual([true, false, true, false]);
  });

  test('a pattern with catastrophic backtracking checks a long argument in linear time', () => {
    const cache = new SchemaValidatorCache();
    const validate = validatorOf(cache, { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    const started = performance.now();
    // A backtracking engine takes about 2^30 steps here (many seconds); a linear one, microseconds.
    expect(validate({ s: `${'a'.repeat(30)}!` })).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
    expect(validate({ s: 'aaaa' })).toBe(true);
  });

  test('patterns keep their own meaning side by side, and one RE2 cannot run makes only its schema invalid', () => {
    const cache = new SchemaValidatorCache();
    const validate = validatorOf(cache, {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+\\d{2}$' }, tag: { type: 'string', pattern: 'x' } },
      patternProperties: { '^n_': { type: 'number' } },
    });
    expect([validate({ id: 'ab12', tag: 'xyz' }), validate({ id: 'ab1' }), validate({ tag: 'abc' }), validate({ n_1: 'one' }), validate({ n_1: 1 })]).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
    expect(cache.compile({ type: 'string', pattern: '^(?!admin).*$' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^its parameter schema is invalid/),
    });
  });
});
