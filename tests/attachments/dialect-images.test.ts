// Each dialect's own image shape, for a user's images and a tool result's: OpenAI-compatible `image_url`
// data-URL parts (a tool message carries text only, so a run of tool results' images follows it as one user
// message), Anthropic `image` blocks with a base64 source (inside the tool_result for a tool's).
import { expect, test } from 'vitest';
import { toAnthropicMessages } from '../../src/plugins/anthropic/index.ts';
import { toOpenAiMessages } from '../../src/plugins/openai-compatible/index.ts';
import type { Message } from '../../src/shared/sessions/index.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = { type: 'image', mimeType: 'image/png', data: PNG } as const;
const messages: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Compare these.' }, image] },
  {
    role: 'assistant',
    content: [
      { type: 'toolCall', id: 'a', name: 'shot', arguments: {} },
      { type: 'toolCall', id: 'b', name: 'shot', arguments: {} },
    ],
    stopReason: 'toolUse',
  },
  { role: 'toolResult', toolCallId: 'a', toolName: 'shot', content: [{ type: 'text', text: 'first' }, image], isError: false },
  { role: 'toolResult', toolCallId: 'b', toolName: 'shot', content: [{ type: 'text', text: 'second' }, image], isError: false },
  { role: 'user', content: 'Which is larger?' },
];

test('OpenAI-compatible: image_url parts for the user, and the tool results images after both tool messages', () => {
  const url = `data:image/png;base64,${PNG}`;
  expect(toOpenAiMessages('', messages)).toEqual([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Compare these.' },
        { type: 'image_url', image_url: { url } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'shot', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'shot', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: 'first\n[image]' },
    { role: 'tool', tool_call_id: 'b', content: 'second\n[image]' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'The images the tool results above returned:' },
        { type: 'image_url', image_url: { url } },
        { type: 'image_url', image_url: { url } },
      ],
    },
    { role: 'user', content: 'Which is larger?' },
  ]);
});

test('Anthropic: image blocks with a base64 source, in the user turn and inside each tool_result', () => {
  const block = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };
  const out = toAnthropicMessages(messages);
  expect(out[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Compare these.' }, block] });
  expect(out[2]).toEqual({
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'first' }, block], is_error: false },
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'second' }, block], is_error: false },
      { type: 'text', text: 'Which is larger?' },
    ],
  });
});
