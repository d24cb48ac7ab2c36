import { expect, test } from 'vitest';
import { revisionMemo } from './revision-memo.ts';

test('a value is read once per key while the revision stays, again once it moves, and every time while it is unknown', () => {
  let revision: string | null = 'a';
  const reads: string[] = [];
  const config = revisionMemo(
    (id: string) => {
      reads.push(id);
      return { id, at: revision };
    },
    () => revision,
  );
  const first = config('p');
  expect(config('p')).toBe(first);
  config('q');
  expect(reads).toEqual(['p', 'q']);
  revision = 'b';
  expect(config('p')).toEqual({ id: 'p', at: 'b' });
  expect(reads).toEqual(['p', 'q', 'p']);
  revision = null;
  config('p');
  config('p');
  expect(reads).toEqual(['p', 'q', 'p', 'p', 'p']);
});

test('a read that throws keeps nothing: the next read tries again', () => {
  let fail = true;
  const config = revisionMemo(
    () => {
      if (fail) throw new Error('unreadable');
      return 'ok';
    },
    () => 'same',
  );
  expect(() => config('p')).toThrow('unreadable');
  fail = false;
  expect(config('p')).toBe('ok');
});
