import { expect, test } from 'vitest';
import { anthropicRequestBody, anthropicRequestBytes } from '../../src/plugins/anthropic/index.ts';
import { OPENAI_COMPATIBLE_PRESETS, openAiRequestBody, openAiRequestBytes } from '../../src/plugins/openai-compatible/index.ts';
import type { ProviderRequest } from '../../src/shared/providers/index.ts';
import type { Message } from '../../src/shared/sessions/index.ts';
import { deepFreeze } from '../../src/shared/sent-requests.ts';
import { randomWords, seededRandom } from '../fixtures/seeded-random.ts';

// Each dialect makes a request's JSON from the kept JSON of each frozen message (the provider's process holds
// them from the request before): it must be the body, whatever the messages, and never an older message's;
// and it is ASCII only (escapes beyond).

const decoder = new TextDecoder();
const openAiRequestText = (...args: Parameters<typeof openAiRequestBytes>) => decoder.decode(openAiRequestBytes(...args));
const anthropicRequestText = (request: ProviderRequest) => decoder.decode(anthropicRequestBytes(request));

/** The same JSON value as the body, written in ASCII only. */
function expectBody(json: string, body: unknown): void {
  expect(json).toMatch(/^[\u0020-\u007e]*$/);
  expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(body)));
}

const model = { id: 'm', contextWindow: 100_000, reasoning: true, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } };
const tools = [
  { name: 'read', description: 'Reads a file — any file.', parameters: { type: 'object', properties: { path: { type: 'string' } } }, readOnly: true },
];

/** Text with now and then a character that is not ASCII (V8's slow path) or one JSON escapes. */
function text(rand: () => number): string {
  const extra = ['', '', 'é', '—', '😀', '"quoted"', 'line\nbreak', '\u2028', '\\'][Math.floor(rand() * 9)]!;
  return `${randomWords(rand, 1 + Math.floor(rand() * 6))}${extra}`;
}

/** One message of every kind the dialect converts, including those it leaves out. */
function randomMessage(rand: () => number, i: number): Message {
  const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
  switch (Math.floor(rand() * 9)) {
    case 0:
      return { role: 'user', content: text(rand), timestamp: i } as Message;
    case 1:
      return { role: 'user', content: [{ type: 'text', text: text(rand) }, ...(rand() < 0.5 ? [image] : [])], timestamp: i } as Message;
    case 2:
    case 3:
      return {
        role: 'assistant',
        content: [
          ...(rand() < 0.3 ? [{ type: 'thinking', thinking: text(rand), ...(rand() < 0.5 ? { thinkingSignature: 'sig', redacted: rand() < 0.3 } : {}) }] : []),
          ...(rand() < 0.7 ? [{ type: 'text', text: text(rand) }] : []),
          ...(rand() < 0.6 ? [{ type: 'toolCall', id: `call_${i}`, name: 'read', arguments: { path: text(rand) } }] : []),
        ],
        stopReason: ['toolUse', 'stop', 'error', 'aborted', 'length'][Math.floor(rand() * 5)],
        timestamp: i,
      } as Message;
    case 4:
    case 5:
    case 6:
      return {
        role: 'toolResult',
        toolCallId: `call_${i}`,
        toolName: 'read',
        content: [...(rand() < 0.8 ? [{ type: 'text', text: text(rand) }] : []), ...(rand() < 0.2 ? [image] : [])],
        isError: rand() < 0.2,
        timestamp: i,
      } as Message;
    case 7:
      return { role: 'custom', customType: 'note', content: rand() < 0.8 ? text(rand) : '', timestamp: i } as unknown as Message;
    default:
      return { role: 'bashExecution', command: 'ls', output: text(rand), timestamp: i } as unknown as Message;
  }
}

function randomRequest(rand: () => number, messages: Message[]): ProviderRequest {
  return {
    model,
    systemPrompt: rand() < 0.2 ? '' : `You are Amber — ${text(rand)}`,
    messages,
    tools: rand() < 0.3 ? [] : tools,
    ...(rand() < 0.5 ? { maxTokens: 1000 } : {}),
    ...(rand() < 0.5 ? { thinkingLevel: 'high' as const } : {}),
    ...(rand() < 0.15 ? { responseSchema: { name: 'answer', description: 'The answer — whole.', schema: { type: 'object' } } } : {}),
  } as ProviderRequest;
}

test('the JSON of a request is its body in ASCII, in both dialects, frozen or not, as a conversation grows turn by turn', () => {
  const rand = seededRandom(7);
  for (let conversation = 0; conversation < 40; conversation++) {
    const messages: Message[] = [];
    for (let turn = 0; turn < 25; turn++) {
      for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) messages.push(randomMessage(rand, messages.length));
      const request = randomRequest(rand, messages);
      for (const preset of Object.values(OPENAI_COMPATIBLE_PRESETS)) {
        const body = openAiRequestBody(structuredClone(request), preset);
        expectBody(openAiRequestText(request, preset), body);
        // The provider's process holds earlier messages frozen: the kept JSON of each is used from now on.
        const frozen = { ...request, messages: messages.map((m) => deepFreeze(m)), tools: deepFreeze(request.tools) };
        expectBody(openAiRequestText(frozen, preset), body);
        expectBody(openAiRequestText(frozen, preset), body);
      }
      const body = anthropicRequestBody(structuredClone(request));
      expectBody(anthropicRequestText(request), body);
      const frozen = { ...request, messages: messages.map((m) => deepFreeze(m)), tools: deepFreeze(request.tools) };
      expectBody(anthropicRequestText(frozen), body);
      expectBody(anthropicRequestText(frozen), body);
    }
  }
});

test('a message that can still change is serialised again each time, not taken from an earlier request', () => {
  const preset = OPENAI_COMPATIBLE_PRESETS.openai!;
  const content = [{ type: 'text', text: 'first' }];
  // Frozen at the top only: its content can still change.
  const shallow = Object.freeze({ role: 'user', content, timestamp: 1 }) as unknown as Message;
  const request = { model, systemPrompt: 'Be brief.', messages: [shallow], tools: [] } as unknown as ProviderRequest;
  expect(JSON.parse(openAiRequestText(request, preset)).messages[1]).toEqual({ role: 'user', content: 'first' });
  content[0]!.text = 'changed';
  expect(JSON.parse(openAiRequestText(request, preset)).messages[1]).toEqual({ role: 'user', content: 'changed' });
  // Tools that can still change are serialised again too.
  const toolList = [{ name: 'read', description: 'Reads.', parameters: { type: 'object' }, readOnly: true }];
  expect(JSON.parse(openAiRequestText({ ...request, tools: toolList }, preset)).tools[0].function.description).toBe('Reads.');
  toolList[0]!.description = 'Reads a file.';
  expect(JSON.parse(openAiRequestText({ ...request, tools: toolList }, preset)).tools[0].function.description).toBe('Reads a file.');
  // A new system prompt is sent as it is, not the one kept from the request before.
  expect(JSON.parse(openAiRequestText({ ...request, systemPrompt: 'Be thorough — really.' }, preset)).messages[0]).toEqual({
    role: 'system',
    content: 'Be thorough — really.',
  });
  // The same for the Anthropic dialect: the message, the tools and the system prompt as they are now.
  content[0]!.text = 'third';
  const anthropic = JSON.parse(anthropicRequestText({ ...request, tools: toolList }));
  expect(anthropic.messages[0].content[0].text).toBe('third');
  expect(anthropic.tools[0].description).toBe('Reads a file.');
  expect(JSON.parse(anthropicRequestText({ ...request, systemPrompt: 'Be thorough — really.' })).system[0].text).toBe('Be thorough — really.');
});
