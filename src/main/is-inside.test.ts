import { describe, expect, test } from 'vitest';
import { isInside } from './is-inside.ts';

describe('isInside(root, target)', () => {
  test('prefix matching is separator-terminated: /ws2 is not inside /ws', () => {
    expect(isInside('/ws', '/ws2')).toBe(false);
    expect(isInside('/ws', '/ws2/file')).toBe(false);
    expect(isInside('/ws', '/ws')).toBe(true);
    expect(isInside('/ws/', '/ws/a/b')).toBe(true);
    expect(isInside('/ws', '/ws/a/../b')).toBe(true);
  });

  test('the root comes first: a folder is not inside a file below it', () => {
    expect(isInside('/ws/a', '/ws')).toBe(false);
    expect(isInside('/ws', '/ws/a')).toBe(true);
  });

  test('.. that climbs out of the root is outside it', () => {
    expect(isInside('/ws', '/ws/../etc/passwd')).toBe(false);
    expect(isInside('/ws', '../ws2')).toBe(false);
  });

  test('caseless compares without case, and only when asked', () => {
    expect(isInside('/Users/Me/Amber', '/users/me/amber/notes')).toBe(false);
    expect(isInside('/Users/Me/Amber', '/users/me/amber/notes', { caseless: true })).toBe(true);
    expect(isInside('/Users/Me/Amber', '/users/me/amber2', { caseless: true })).toBe(false);
  });
});
