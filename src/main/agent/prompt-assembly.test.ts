import { describe, expect, test } from 'vitest';
import { assemblePrompt, type PromptBlock } from './prompt-assembly.ts';

const context = { sessionId: 's', signal: new AbortController().signal };
const block = (id: string, position: 'head' | 'tail', priority: number, render: PromptBlock['render']): PromptBlock => ({ id, position, priority, render });

describe('prompt assembly', () => {
  test('head blocks follow the system prompt and tail blocks the conversation, by priority, ties in insertion order', async () => {
    const out = await assemblePrompt({
      systemPrompt: 'SYSTEM',
      blocks: [
        block('t2', 'tail', 5, () => 'tail five'),
        block('h2', 'head', 10, () => 'head ten'),
        block('h1', 'head', 1, async () => 'head one'),
        block('h3', 'head', 10, () => 'head ten again'),
        block('t1', 'tail', -1, () => 'tail minus one'),
      ],
      messages: [{ role: 'user', content: 'hi' }],
      context,
    });
    expect(out.systemPrompt).toBe('SYSTEM\n\nhead one\n\nhead ten\n\nhead ten again');
    expect(out.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'tail minus one\n\ntail five' },
    ]);
    expect(out.failures).toEqual([]);
  });

  test('an empty block is left out and a throwing block is skipped and reported', async () => {
    const out = await assemblePrompt({
      systemPrompt: 'SYSTEM',
      blocks: [
        block('empty', 'head', 0, () => '  '),
        block('boom', 'head', 1, () => {
          throw new Error('plugin crashed');
        }),
        block('rejects', 'tail', 1, () => Promise.reject(new Error('dead peer'))),
        block('ok', 'head', 2, () => 'fine'),
      ],
      messages: [],
      context,
    });
    expect(out.systemPrompt).toBe('SYSTEM\n\nfine');
    expect(out.messages).toEqual([]);
    expect(out.failures).toEqual([
      { blockId: 'boom', error: 'plugin crashed' },
      { blockId: 'rejects', error: 'dead peer' },
    ]);
  });

  test('a block that never renders is skipped after the timeout', async () => {
    const out = await assemblePrompt({
      systemPrompt: 'S',
      blocks: [block('hang', 'head', 0, () => new Promise<string>(() => {}))],
      messages: [],
      context,
      renderTimeoutMs: 5,
    });
    expect(out.systemPrompt).toBe('S');
    expect(out.failures).toEqual([{ blockId: 'hang', error: 'it did not render within 5 ms' }]);
  });
});
