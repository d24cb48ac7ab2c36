import { describe, expect, test } from 'vitest';
import { ThinkTagSplitter, type ContentPiece } from './think-tag-splitter.ts';

function split(chunks: string[]): { thinking: string; text: string } {
  const s = new ThinkTagSplitter();
  const pieces: ContentPiece[] = [...chunks.flatMap((c) => s.push(c)), ...s.flush()];
  return {
    thinking: pieces
      .filter((p) => p.kind === 'thinking')
      .map((p) => p.text)
      .join(''),
    text: pieces
      .filter((p) => p.kind === 'text')
      .map((p) => p.text)
      .join(''),
  };
}

describe('think tags in content', () => {
  test('a leading <think> block becomes thinking, however the chunks split the tags', () => {
    const whole = '<think>\nLet me add.\n</think>\n\nIt is 4.';
    const expected = { thinking: '\nLet me add.\n', text: 'It is 4.' };
    expect(split([whole])).toEqual(expected);
    for (let cut = 1; cut < whole.length; cut++) expect(split([whole.slice(0, cut), whole.slice(cut)]), `cut at ${cut}`).toEqual(expected);
    expect(split([...whole])).toEqual(expected);
  });

  test('content that does not start with the tag is text, tags later on included', () => {
    expect(split(['Hello ', '<think>x</think>'])).toEqual({ thinking: '', text: 'Hello <think>x</think>' });
    expect(split(['<th', 'ink about it'])).toEqual({ thinking: '', text: '<think about it' });
    expect(split(['<'])).toEqual({ thinking: '', text: '<' });
  });

  test('an unclosed think block stays thinking when the reply ends', () => {
    expect(split(['<think>still going </th'])).toEqual({ thinking: 'still going </th', text: '' });
  });
});
