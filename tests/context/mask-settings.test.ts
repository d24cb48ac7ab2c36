// The masking settings through the whole core: with the defaults a long conversation's old tool output reaches
// the model as placeholders; /set context.maskAfterTokens 0 sends it whole from the next request on.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { ProviderEvent, ProviderRequest, StreamFn } from '../../src/shared/providers/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let under: AppUnderTest | null = null;
afterEach(async () => {
  await under?.close();
  under = null;
});

const hidden = (request: ProviderRequest) => request.messages.filter((m) => m.role === 'toolResult' && JSON.stringify(m).includes('[Output hidden')).length;

test('the defaults hide old tool output from a long conversation; /set context.maskAfterTokens 0 sends it whole again', async () => {
  const requests: ProviderRequest[] = [];
  const stream: StreamFn = async function* (request): AsyncGenerator<ProviderEvent> {
    requests.push(request);
    yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop' } };
  };
  under = openApp({
    prefix: 'amber-mask-settings-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: () => ({
      defaultModel: { provider: 'fake', modelId: 'm' },
      resolveProvider: () => ({
        stream,
        model: { id: 'm', contextWindow: 1_000_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      }),
    }),
  });
  const { app } = under;
  const s = app.sessions.create({ title: 'Long', cwd: join(under.dir, 'ws') });
  // 40 reads of 10,000 characters: about 100,000 tokens of tool output.
  const history: EntryInput[] = [{ type: 'message', message: { role: 'user', content: 'Read every module.' } }];
  for (let i = 0; i < 40; i++) {
    history.push({
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'toolCall', id: `call_${i}`, name: 'read', arguments: { path: `m${i}.ts` } }], stopReason: 'toolUse' },
    });
    history.push({
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: `call_${i}`,
        toolName: 'read',
        content: [{ type: 'text', text: `m${i} `.padEnd(10_000, 'x') }],
        isError: false,
      },
    });
  }
  app.sessions.appendMany(s.id, history);

  await app.agent.prompt(s.id, 'Summarise them.');
  expect(hidden(requests[0]!)).toBeGreaterThanOrEqual(20);
  expect(hidden(requests[0]!)).toBeLessThan(40);

  const set = await under.call<{ result: { kind: string; text: string } }>('commands.run', { input: '/set context.maskAfterTokens 0', sessionId: s.id });
  expect(set.result).toMatchObject({ kind: 'ok', text: expect.stringMatching(/sent whole/) });
  expect((await under.call<{ result: { text: string } }>('commands.run', { input: '/get context.maskAfterTokens', sessionId: s.id })).result.text).toBe(
    'context.maskAfterTokens is 0 tokens.',
  );
  const asked = requests.length;
  await app.agent.prompt(s.id, 'Again, please.');
  expect(requests.length).toBeGreaterThan(asked);
  expect(hidden(requests[asked]!)).toBe(0);
  // The conversation itself kept every output whole all along.
  expect(app.sessions.context(s.id).messages.filter((m) => JSON.stringify(m).includes('[Output hidden'))).toEqual([]);
});
