import { expect, test } from 'vitest';
import { promptArguments, promptWords } from './prompt-arguments.ts';

test('prompt arguments fill in order, by name, and the last takes the remaining words', () => {
  expect(promptArguments(['city', 'unit'], 'Oslo celsius')).toEqual({ city: 'Oslo', unit: 'celsius' });
  expect(promptArguments(['city', 'unit'], 'unit=kelvin Oslo')).toEqual({ city: 'Oslo', unit: 'kelvin' });
  expect(promptArguments(['file', 'focus'], 'a.md error handling')).toEqual({ file: 'a.md', focus: 'error handling' });
  expect(promptArguments(['city'], 'other=1')).toEqual({ city: 'other=1' });
  expect(() => promptArguments([], 'x')).toThrow(/takes no arguments/);
});

test('a quoted value keeps its spaces, in order or by name, and a quote inside a word is a letter', () => {
  expect(promptArguments(['city', 'state'], '"San Francisco" California')).toEqual({ city: 'San Francisco', state: 'California' });
  expect(promptArguments(['city', 'state'], 'state=\'New  York\' city="New York"')).toEqual({ city: 'New York', state: 'New  York' });
  expect(promptWords('don\'t  stop "" \'a b')).toEqual(["don't", 'stop', '', 'a b']);
  expect(promptArguments(['file', 'focus'], "a.md don't fail")).toEqual({ file: 'a.md', focus: "don't fail" });
});
