import { describe, expect, test } from 'vitest';
import { isInside } from './path-confinement.ts';

describe('path confinement', () => {
  test('prefix matching is separator-terminated: /ws2 is not inside /ws', () => {
    expect(isInside('/ws', '/ws2')).toBe(false);
    expect(isInside('/ws', '/ws2/file')).toBe(false);
    expect(isInside('/ws', '/ws')).toBe(true);
    expect(isInside('/ws/', '/ws/a/b')).toBe(true);
    expect(isInside('/ws', '/ws/a/../b')).toBe(true);
  });
});
