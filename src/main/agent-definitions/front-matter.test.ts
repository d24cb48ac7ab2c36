import { describe, expect, it } from 'vitest';
import { FrontMatterError, parseFrontMatter } from './front-matter.ts';

describe('parseFrontMatter', () => {
  it('reads key: value and key: [a, b] lines, and the body after the closing line', () => {
    const text = [
      '---',
      'name: explore',
      'description: "Finds things: fast"',
      '# a comment',
      '',
      'tools: [read, "grep", ls]',
      'write: false',
      '---',
      '',
      'Search.',
      '',
    ].join('\n');
    expect(parseFrontMatter(text)).toEqual({
      fields: { name: 'explore', description: 'Finds things: fast', tools: ['read', 'grep', 'ls'], write: 'false' },
      body: 'Search.',
    });
  });

  it('reads an empty list and Windows line ends', () => {
    expect(parseFrontMatter('---\r\ntools: []\r\n---\r\nBody').fields).toEqual({ tools: [] });
  });

  it.each([
    ['no opening line', 'name: x\n---\n', 1, /must start with a ---/],
    ['no closing line', '---\nname: x\n', 3, /not closed/],
    ['a nested value', '---\nmodel:\n  provider: x\n---\n', 3, /indented/],
    ['a line that is not key: value', '---\njust words\n---\n', 2, /expected key: value/],
    ['a repeated key', '---\nname: a\nname: b\n---\n', 3, /given twice/],
    ['an unclosed list', '---\ntools: [a, b\n---\n', 2, /one line/],
    ['an empty list item', '---\ntools: [a, , b]\n---\n', 2, /empty item/],
    ['an unclosed quote', '---\nname: "abc\n---\n', 2, /not closed/],
  ])('refuses %s with its line number', (_what, text, line, message) => {
    let error: unknown;
    try {
      parseFrontMatter(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrontMatterError);
    expect((error as FrontMatterError).line).toBe(line);
    expect((error as FrontMatterError).message).toMatch(message);
  });
});
