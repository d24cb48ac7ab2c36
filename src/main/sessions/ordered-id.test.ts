import { describe, expect, test } from 'vitest';
import { orderedId } from './ordered-id.ts';

describe('orderedId', () => {
  test('ids made one after another are 16 hex digits, distinct, and sort in the order they were made', () => {
    const ids = Array.from({ length: 50_000 }, () => orderedId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  test('a clock that steps back does not make an id sort before earlier ones', () => {
    const a = orderedId(2_000_000_000_000);
    const b = orderedId(1_000_000_000_000);
    expect(b > a).toBe(true);
  });
});
