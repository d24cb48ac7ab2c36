import { describe, expect, test } from 'vitest';
import type { Message } from '../../shared/sessions/index.ts';
import { assemblePrompt, type KeptRenders, type PromptBlock } from './prompt-assembly.ts';

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

  test('the sources of the blocks that rendered into the request are collected, each once; a plain string still renders', async () => {
    const memory = { pluginId: 'memory', id: '3', label: 'The user prefers tabs' };
    const out = await assemblePrompt({
      systemPrompt: 'S',
      blocks: [
        block('plain', 'head', 0, () => 'plain text'),
        block('recall', 'tail', 0, async () => ({ text: 'Memories:\n- tabs', sources: [memory] })),
        block('again', 'tail', 1, () => ({ text: 'again', sources: [memory, { pluginId: 'notes', id: 'n1', label: 'A note' }] })),
        block('empty', 'tail', 2, () => ({ text: ' ', sources: [{ pluginId: 'memory', id: '9', label: 'not rendered' }] })),
      ],
      messages: [{ role: 'user', content: 'hi' }],
      context,
    });
    expect(out.systemPrompt).toBe('S\n\nplain text');
    expect(out.messages.at(-1)).toEqual({ role: 'user', content: 'Memories:\n- tabs\n\nagain' });
    expect(out.sources).toEqual([memory, { pluginId: 'notes', id: 'n1', label: 'A note' }]);
    expect(JSON.stringify(out.messages)).not.toContain('sources');
    expect(out.failures).toEqual([]);
  });

  test('a block that answers a malformed object is left out and reported; the others still render', async () => {
    const out = await assemblePrompt({
      systemPrompt: 'S',
      blocks: [
        block('bad', 'head', 0, () => ({ text: 'sneaky', sources: [{ id: 1 }] }) as unknown as string),
        block('no-text', 'head', 1, () => ({ sources: [] }) as unknown as string),
        block('ok', 'head', 2, () => 'fine'),
      ],
      messages: [],
      context,
    });
    expect(out.systemPrompt).toBe('S\n\nfine');
    expect(out.sources).toEqual([]);
    expect(out.failures.map((f) => f.blockId)).toEqual(['bad', 'no-text']);
    expect(out.failures[0]!.error).toContain('sources');
  });

  test("a block declared cache 'run' renders once a run until a new user message; the others render for every request", async () => {
    const renders = { kept: 0, each: 0 };
    const blocks = [
      { ...block('kept', 'tail', 0, () => `kept ${++renders.kept}`), cache: 'run' as const },
      block('each', 'tail', 1, () => `each ${++renders.each}`),
    ];
    const kept: KeptRenders = new Map();
    const conversation: Message[] = [{ role: 'user', content: 'read the file' }];
    const request = () => assemblePrompt({ systemPrompt: 'S', blocks, messages: conversation, context, kept });
    expect((await request()).messages.at(-1)).toEqual({ role: 'user', content: 'kept 1\n\neach 1' });
    conversation.push({ role: 'assistant', content: [{ type: 'text', text: 'Reading.' }], stopReason: 'stop', timestamp: 1 } as Message);
    expect((await request()).messages.at(-1)).toEqual({ role: 'user', content: 'kept 1\n\neach 2' });
    // A steer: the run's later requests are about it too.
    conversation.push({ role: 'user', content: 'and the other one' });
    expect((await request()).messages.at(-1)).toEqual({ role: 'user', content: 'kept 2\n\neach 3' });
    expect((await request()).messages.at(-1)).toEqual({ role: 'user', content: 'kept 2\n\neach 4' });
    // Without a run's store (a request outside a run), it renders every time.
    await assemblePrompt({ systemPrompt: 'S', blocks, messages: conversation, context });
    expect(renders).toEqual({ kept: 3, each: 5 });
  });

  test("a 'run' block whose render failed is not kept: the next request renders it again", async () => {
    let calls = 0;
    const flaky = {
      ...block('flaky', 'head', 0, () => {
        if (++calls === 1) throw new Error('not yet');
        return `ready ${calls}`;
      }),
      cache: 'run' as const,
    };
    const kept: KeptRenders = new Map();
    const messages: Message[] = [{ role: 'user', content: 'hi' }];
    const first = await assemblePrompt({ systemPrompt: 'S', blocks: [flaky], messages, context, kept });
    expect(first.failures).toEqual([{ blockId: 'flaky', error: 'not yet' }]);
    expect((await assemblePrompt({ systemPrompt: 'S', blocks: [flaky], messages, context, kept })).systemPrompt).toBe('S\n\nready 2');
    expect((await assemblePrompt({ systemPrompt: 'S', blocks: [flaky], messages, context, kept })).systemPrompt).toBe('S\n\nready 2');
    expect(calls).toBe(2);
  });
});
