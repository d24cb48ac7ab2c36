import { describe, expect, test } from 'vitest';
import { jsonLimitExceeded } from './declaration-limits.ts';

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { child: nested(depth - 1) });

describe('jsonLimitExceeded', () => {
  test('a value within both limits passes', () => {
    expect(jsonLimitExceeded({ type: 'object', properties: { a: { type: 'string' } } }, { depth: 32, bytes: 1024 })).toBeNull();
    expect(jsonLimitExceeded(nested(32), { depth: 32, bytes: 10_000 })).toBeNull();
  });

  test('one level too deep is refused as depth', () => {
    expect(jsonLimitExceeded(nested(33), { depth: 32, bytes: 10_000 })).toBe('depth');
  });

  test('a value longer than the byte limit as JSON is refused as size', () => {
    expect(jsonLimitExceeded({ description: 'x'.repeat(2000) }, { depth: 32, bytes: 1000 })).toBe('size');
    expect(
      jsonLimitExceeded(
        Array.from({ length: 600 }, () => 1),
        { depth: 32, bytes: 1000 },
      ),
    ).toBe('size');
  });

  test('a cyclic value is refused without looping', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(jsonLimitExceeded(cyclic, { depth: 32, bytes: 1_000_000 })).toBe('depth');
  });

  test('shared references that would expand to gigabytes are refused after a bounded walk', () => {
    // Each level refers twice to the next: 2^30 leaves as JSON, from 30 small objects in memory.
    let value: unknown = 'leaf';
    for (let i = 0; i < 30; i++) value = { a: value, b: value };
    const started = performance.now();
    expect(jsonLimitExceeded(value, { depth: 32, bytes: 64 * 1024 })).toBe('size');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test('more objects and arrays than the node limit are refused as nodes', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    expect(jsonLimitExceeded(wide, { depth: 32, bytes: 10_000, nodes: 22 })).toBeNull();
    expect(jsonLimitExceeded(wide, { depth: 32, bytes: 10_000, nodes: 21 })).toBe('nodes');
  });
});
