import { describe, expect, test } from 'vitest';
import type { Message } from '../../shared/sessions/index.ts';
import { assemblePrompt } from './prompt-assembly.ts';
import { recallPrompt } from './recall-prompt.ts';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop', timestamp: 0 }) as unknown as Message;
const toolResult = (text: string): Message =>
  ({ role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text }], isError: false, timestamp: 0 }) as unknown as Message;

describe('the recall prompt', () => {
  test('leads with the latest user message, then the turns before it newest first, without tool output', () => {
    const messages = [user('first question'), assistant('first answer'), user('second question'), assistant('looking'), toolResult('FILE CONTENTS')];
    expect(recallPrompt(messages)).toBe('second question\nlooking\nfirst answer\nfirst question');
  });

  test('is cut at its limit, the latest user message first', () => {
    const out = recallPrompt([user('old '.repeat(2000)), user('x'.repeat(5000))]);
    expect(out).toBe('x'.repeat(4000));
    expect(recallPrompt([user('a'.repeat(10)), user('b'.repeat(10))], 15)).toBe(`${'b'.repeat(10)}\naaaa`);
  });

  test('reaches every prompt block as it renders, and is never sent', async () => {
    const seen: (string | undefined)[] = [];
    const messages = [user('Which port does the billing service use?')];
    const out = await assemblePrompt({
      systemPrompt: 'SYSTEM',
      blocks: [{ id: 'b', position: 'tail', priority: 0, render: (c) => (seen.push(c.prompt), '') }],
      messages,
      context: { sessionId: 's', signal: new AbortController().signal },
    });
    expect(seen).toEqual(['Which port does the billing service use?']);
    expect(out.messages).toEqual(messages);
  });
});
