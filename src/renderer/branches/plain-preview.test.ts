import { expect, test } from 'vitest';
import { plainPreview } from './plain-preview.ts';

test.each([
  ['## Plan\n- read the **parser**\n- fix `parseDate`', 'Plan read the parser fix parseDate'],
  ['See [the docs](https://example.com/x) and ![chart](a.png)', 'See the docs and chart'],
  ['```ts\nconst a = 1;\n```', 'const a = 1;'],
  ['> quoted _word_ and ~~gone~~', 'quoted word and gone'],
  ['1. first\n2) second', 'first second'],
  ['snake_case_name and 2 * 3 * 4 stay', 'snake_case_name and 2 * 3 * 4 stay'],
  ['', ''],
])('%j reads as %j', (markdown, plain) => {
  expect(plainPreview(markdown)).toBe(plain);
});
