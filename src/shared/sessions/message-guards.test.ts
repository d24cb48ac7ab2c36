import { expect, test } from 'vitest';
import { type Message, Message as MessageSchema } from './entry.ts';
import { contentText, isAssistant, isToolResult, isUser, usageOf } from './message-guards.ts';

const user = MessageSchema.parse({
  role: 'user',
  content: [
    { type: 'text', text: 'look' },
    { type: 'image', data: 'AA', mimeType: 'image/png' },
    { type: 'text', text: 'here' },
  ],
});
const reply = MessageSchema.parse({
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'hm' },
    { type: 'text', text: 'a' },
    { type: 'toolCall', id: '1', name: 'ls', arguments: {} },
    { type: 'text', text: 'b' },
  ],
  stopReason: 'toolUse',
  usage: { input: 3, output: 4 },
});
const result = MessageSchema.parse({ role: 'toolResult', toolCallId: '1', toolName: 'ls', content: [{ type: 'text', text: 'x' }], isError: false });
const other = MessageSchema.parse({ role: 'bashExecution', command: 'ls' });

test('each guard accepts its own role only, and a role the app does not know is none of them', () => {
  const all: Message[] = [user, reply, result, other];
  expect(all.map(isUser)).toEqual([true, false, false, false]);
  expect(all.map(isAssistant)).toEqual([false, true, false, false]);
  expect(all.map(isToolResult)).toEqual([false, false, true, false]);
});

test('a message claiming the assistant role without its shape is refused before any guard sees it', () => {
  expect(MessageSchema.safeParse({ role: 'assistant', content: 'not parts', usage: { input: 1, output: 1 } }).success).toBe(false);
});

test('usage is read from assistant replies only', () => {
  expect(usageOf(reply)).toMatchObject({ input: 3, output: 4, cacheRead: 0 });
  expect(usageOf(user)).toBeUndefined();
  expect(usageOf({ role: 'custom', usage: { input: 9, output: 9 } } as Message)).toBeUndefined();
});

test('content text joins text parts, stands images as asked and drops thinking and tool calls', () => {
  if (!isUser(user) || !isAssistant(reply)) throw new Error('fixtures');
  expect(contentText(reply.content)).toBe('ab');
  expect(contentText(user.content)).toBe('lookhere');
  expect(contentText(user.content, { separator: '\n', image: '[image]' })).toBe('look\n[image]\nhere');
  expect(contentText('plain')).toBe('plain');
});
