import { expect, test } from 'vitest';
import { shareTools } from './share-tools.ts';

test('servers that fit keep every tool', () => {
  expect(shareTools([10, 20], 256)).toEqual([10, 20]);
});

test('one server over the budget keeps the budget', () => {
  expect(shareTools([300], 256)).toEqual([256]);
});

test('small servers keep all their tools and the large ones share the rest equally', () => {
  expect(shareTools([300, 12, 500, 0], 256)).toEqual([122, 12, 122, 0]);
  expect(shareTools([300, 12, 500, 0], 256).reduce((a, b) => a + b)).toBeLessThanOrEqual(256);
});
