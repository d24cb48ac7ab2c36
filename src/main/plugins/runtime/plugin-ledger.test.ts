import { expect, test } from 'vitest';
import { toDisposable } from '../../../shared/disposable.ts';
import { PluginLedger } from './plugin-ledger.ts';

test('unwinding disposes a plugin’s entries newest-first and leaves other plugins alone', () => {
  const ledger = new PluginLedger();
  const order: string[] = [];
  for (const label of ['a', 'b', 'c'])
    ledger.record(
      'one',
      label,
      toDisposable(() => order.push(label)),
    );
  ledger.record(
    'two',
    'x',
    toDisposable(() => order.push('x')),
  );
  expect(ledger.labels('one')).toEqual(['a', 'b', 'c']);
  expect(ledger.unwind('one')).toEqual([]);
  expect(order).toEqual(['c', 'b', 'a']);
  expect(ledger.size('one')).toBe(0);
  expect(ledger.size('two')).toBe(1);
});

test('a failing disposable does not stop the others and its error is returned', () => {
  const ledger = new PluginLedger();
  const order: string[] = [];
  ledger.record(
    'p',
    'first',
    toDisposable(() => order.push('first')),
  );
  ledger.record(
    'p',
    'broken',
    toDisposable(() => {
      throw new Error('boom');
    }),
  );
  ledger.record(
    'p',
    'last',
    toDisposable(() => order.push('last')),
  );
  const errors = ledger.unwind('p');
  expect(order).toEqual(['last', 'first']);
  expect(errors).toHaveLength(1);
});

test('releasing disposes one entry by its label and leaves the rest to the unwind', () => {
  const ledger = new PluginLedger();
  const order: string[] = [];
  for (const label of ['a', 'b', 'c'])
    ledger.record(
      'p',
      label,
      toDisposable(() => order.push(label)),
    );
  expect(ledger.release('p', 'b')).toBe(true);
  expect(ledger.release('p', 'b')).toBe(false);
  expect(order).toEqual(['b']);
  expect(ledger.labels('p')).toEqual(['a', 'c']);
  ledger.unwind('p');
  expect(order).toEqual(['b', 'c', 'a']);
});
