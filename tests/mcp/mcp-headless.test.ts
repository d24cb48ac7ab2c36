// End to end in the headless shell: the loopback model calls `mcp__everything__echo`, offered by the mcp
// plugin from the reference server in mcp.json; the call is asked about (MCP tools are write tools,
// whatever their readOnlyHint), and once allowed its result comes back into the reply.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Entry, TranscriptPage } from '../../src/shared/sessions/index.ts';
import type { HeadlessUnderTest } from '../fixtures/headless-under-test.ts';
import { openAiStream } from '../fixtures/provider-server.ts';
import { registered } from '../fixtures/registered.ts';
import { openEverythingHeadless } from './open-everything-headless.ts';

let h: HeadlessUnderTest;

beforeEach(async () => {
  h = await openEverythingHeadless('amber-mcp-e2e-');
});

afterEach(() => h.close());

test('the model calls an MCP tool, the approval is asked, and the result comes back into the reply', async () => {
  const { shell: s, client: c, server } = h;
  await h.connect();
  // mcp.json switched the MCP plugin on at start.
  const tools = s.app.plugins.registries.tools;
  await registered(() => tools.get('mcp__everything__echo') !== undefined, tools);

  server.setScript([
    openAiStream({ toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'hello from the model' } }] }),
    openAiStream({ text: 'The server said: Echo: hello from the model' }),
    // The silent confirm turn after a run that used tools.
    openAiStream({ text: 'done' }),
  ]);
  const session = await c.call<{ id: string }>('sessions.create', { title: 'mcp' });
  const asked = c.waitFor<{ id: string; toolName: string }>('approval.requested');
  const settled = h.send(session.id, 'Echo something.');
  const question = await asked;
  expect(question.toolName).toBe('mcp__everything__echo');
  await c.call('approvals.answer', { questionId: question.id, answer: 'once' });
  await settled;

  const offered = (server.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
  expect(offered).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
  expect(server.requests[1]!.bodyText).toContain('Echo: hello from the model');
  const page = await c.call<TranscriptPage>('sessions.page', { sessionId: session.id });
  const result = page.entries.find((e: Entry) => e.type === 'message' && e.message.role === 'toolResult');
  expect(result?.type === 'message' ? result.message : null).toMatchObject({ toolName: 'mcp__everything__echo', status: 'ok' });
  expect(JSON.stringify(page.entries)).toContain('The server said: Echo: hello from the model');
});
