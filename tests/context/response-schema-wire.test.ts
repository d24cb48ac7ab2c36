// A request that carries a response schema puts it on each provider's wire in that provider's own form, and
// the answer comes back where the compactor reads it: the reply's text (OpenAI-compatible) or the forced
// tool call's arguments (Anthropic).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAnthropicStream } from '../../src/plugins/anthropic/index.ts';
import { createOpenAiCompatibleStream } from '../../src/plugins/openai-compatible/index.ts';
import type { ResponseSchema } from '../../src/shared/providers/index.ts';
import { anthropicStream, openAiStream, startProviderServer, type ProviderServer } from '../fixtures/provider-server.ts';
import { collect, instantSleep, request } from '../providers/provider-test-kit.ts';

let server: ProviderServer;
beforeEach(async () => {
  server = await startProviderServer();
});
afterEach(async () => {
  await server.close();
});

const schema: ResponseSchema = {
  name: 'classify',
  description: 'Classify each message.',
  schema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } }, required: ['items'] },
};

test('OpenAI-compatible: the schema is sent as response_format json_schema and the JSON answer is the reply text', async () => {
  server.setScript(openAiStream({ text: '{"items":["a"]}' }));
  const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test-0123456789', flavor: 'openai' }, { sleep: instantSleep().sleep });
  const { message } = await collect(stream, request({ responseSchema: schema }));
  expect(server.requests[0]!.body).toMatchObject({
    response_format: { type: 'json_schema', json_schema: { name: 'classify', description: 'Classify each message.', schema: schema.schema } },
  });
  expect(message.content).toEqual([{ type: 'text', text: '{"items":["a"]}' }]);

  // Without a schema nothing of it is on the wire.
  server.setScript(openAiStream({ text: 'plain' }));
  await collect(stream, request());
  expect(server.requests[1]!.body).not.toHaveProperty('response_format');
});

test('Anthropic: the schema is a tool the model is made to call, and its arguments are the answer', async () => {
  server.setScript(anthropicStream({ toolCalls: [{ id: 'toolu_1', name: 'classify', arguments: { items: ['a'] } }] }));
  const stream = createAnthropicStream({ baseUrl: server.url, apiKey: 'sk-ant-test-0123456789', flavor: 'anthropic' }, { sleep: instantSleep().sleep });
  const { message } = await collect(stream, request({ responseSchema: schema, thinkingLevel: 'high' }));
  const body = server.requests[0]!.body as Record<string, unknown>;
  expect(body).toMatchObject({
    tools: [{ name: 'classify', description: 'Classify each message.', input_schema: schema.schema }],
    tool_choice: { type: 'tool', name: 'classify' },
  });
  // A forced tool call cannot come with extended thinking: none is asked for.
  expect(body).not.toHaveProperty('thinking');
  expect(message.content).toContainEqual(expect.objectContaining({ type: 'toolCall', name: 'classify', arguments: { items: ['a'] } }));

  server.setScript(anthropicStream({ text: 'plain' }));
  await collect(stream, request());
  expect(server.requests[1]!.body).not.toHaveProperty('tool_choice');
});
