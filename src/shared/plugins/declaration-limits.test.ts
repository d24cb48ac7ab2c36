import { describe, expect, test } from 'vitest';
import { jsonLimitExceeded } from './declaration-limits.ts';

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { child: nested(depth - 1) });

describe('jsonLimitExceeded', () => {
  test('a value within both limits passes', () => {
    expect(jsonLimitExceeded({ type: 'object', properties: { a: { type: 'string' } } }, 32, 1024)).toBeNull();
    expect(jsonLimitExceeded(nested(32), 32, 10_000)).toBeNull();
  });

  test('one level too deep is refused as depth', () => {
    expect(jsonLimitExceeded(nested(33), 32, 10_000)).toBe('depth');
  });

  test('a value longer than the byte limit as JSON is refused as size', () => {
    expect(jsonLimitExceeded({ description: 'x'.repeat(2000) }, 32, 1000)).toBe('size');
    expect(jsonLimitExceeded(Array.from({ length: 600 }, () => 1), 32, 1000)).toBe('size');
  });

  test('a cyclic value is refused without looping', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(jsonLimitExceeded(cyclic, 32, 1_000_000)).toBe('depth');
  });

  test('shared references that would expand to gigabytes are refused after a bounded walk', () => {
    // Each level refers twice to the next: 2^30 leaves as JSON, from 30 small objects in memory.
    let value: unknown = 'leaf';
    for (let i = 0; i < 30; i++) value = { a: value, b: value };
    const started = performance.now();
    expect(jsonLimitExceeded(value, 32, 64 * 1024)).toBe('size');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
