import { expect, test } from 'vitest';
import { anthropicRequestBody } from '../../src/plugins/anthropic/index.ts';
import { OPENAI_COMPATIBLE_PRESETS, openAiRequestBody } from '../../src/plugins/openai-compatible/index.ts';
import type { ProviderRequest } from '../../src/shared/providers/index.ts';
import { deepFreeze } from '../../src/shared/sent-requests.ts';

// A provider's plugin process keeps the messages of recent requests for later ones and hands them over
// frozen: the bundled dialects build their bodies without changing a request.

const request: ProviderRequest = {
  model: { id: 'm', contextWindow: 100_000, reasoning: true, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
  systemPrompt: 'Be brief.',
  thinkingLevel: 'high',
  maxTokens: 1000,
  tools: [{ name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this.' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hm', thinkingSignature: 'sig' },
        { type: 'text', text: 'Reading.' },
        { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.txt' } },
      ],
      stopReason: 'toolUse',
    },
    { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'hello' }], isError: false },
    { role: 'user', content: 'Thanks.' },
  ],
} as unknown as ProviderRequest;

test('the OpenAI-compatible and Anthropic bodies of a frozen request are those of the same request unfrozen', () => {
  const frozen = deepFreeze(structuredClone(request));
  for (const preset of Object.values(OPENAI_COMPATIBLE_PRESETS))
    expect(openAiRequestBody(frozen, preset)).toEqual(openAiRequestBody(structuredClone(request), preset));
  expect(anthropicRequestBody(frozen)).toEqual(anthropicRequestBody(structuredClone(request)));
});
