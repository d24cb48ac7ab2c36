import { expect, test } from 'vitest';
import { identifierPartsOf, identifierWords } from './identifier-words.ts';

test('identifiers split on camelCase, acronyms, digits and snake_case; a plain word has no parts', () => {
  expect(identifierWords('getUserName')).toEqual(['get', 'user', 'name']);
  expect(identifierWords('parseHTTPResponse')).toEqual(['parse', 'http', 'response']);
  expect(identifierWords('MAX_RETRY_COUNT')).toEqual(['max', 'retry', 'count']);
  expect(identifierWords('snake_caseValue')).toEqual(['snake', 'case', 'value']);
  expect(identifierWords('utf8Decoder')).toEqual(['utf', '8', 'decoder']);
  expect(identifierWords('hello')).toEqual([]);
  expect(identifierWords('_private')).toEqual([]);
});

test('a text gives each identifier part once', () => {
  expect(identifierPartsOf('const userName = getUserName(user_name); userName;')).toEqual(['user', 'name', 'get']);
});
