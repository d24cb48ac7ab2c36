import { describe, expect, test } from 'vitest';
import { confine, isInside } from './path-confinement.ts';

describe('path confinement', () => {
  test('prefix matching is separator-terminated: /ws2 is not inside /ws', () => {
    expect(isInside('/ws', '/ws2')).toBe(false);
    expect(isInside('/ws', '/ws2/file')).toBe(false);
    expect(isInside('/ws', '/ws')).toBe(true);
    expect(isInside('/ws/', '/ws/a/b')).toBe(true);
    expect(isInside('/ws', '/ws/a/../b')).toBe(true);
  });

  test('relative paths resolve against the root; .. escapes and outside absolutes are refused', () => {
    expect(confine('/ws', 'src/a.ts')).toEqual({ ok: true, path: '/ws/src/a.ts' });
    expect(confine('/ws', 'a/../b')).toEqual({ ok: true, path: '/ws/b' });
    expect(confine('/ws', '../ws2/x').ok).toBe(false);
    expect(confine('/ws', '/etc/passwd').ok).toBe(false);
    expect(confine('/ws', '/ws/inside')).toEqual({ ok: true, path: '/ws/inside' });
  });

  test('empty paths, NUL bytes and a relative root are refused', () => {
    expect(confine('/ws', '')).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
    expect(confine('/ws', '   ').ok).toBe(false);
    expect(confine('/ws', 'a\0b').ok).toBe(false);
    expect(confine('ws', 'a').ok).toBe(false);
  });
});
