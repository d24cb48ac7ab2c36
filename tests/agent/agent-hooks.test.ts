// The agent's interception points over an in-process hook registry (the plugin side is covered in
// tests/plugins/plugin-hooks.test.ts): input transforms or swallows the user's text before it is stored,
// before_agent_start adds system-prompt text and messages, and session_start tells listeners a conversation opened.
import { afterEach, expect, test } from 'vitest';
import { HookRegistry } from '../../src/main/plugins/index.ts';
import type { HookPoint } from '../../src/shared/plugins/index.ts';
import { createHarness, type Harness, textOf, transcript } from './agent-harness.ts';
import { text } from './scripted-provider.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function registryWith(hooks: Partial<Record<HookPoint, (payload: never) => unknown>>): HookRegistry {
  const registry = new HookRegistry();
  for (const [point, run] of Object.entries(hooks)) {
    registry.register('p', HookRegistry.key('p', point as HookPoint), { point: point as HookPoint, invoke: async (payload) => run(payload as never) });
  }
  return registry;
}

/** Handles a message starting with '!' itself; upper-cases any other. */
function shoutOrHandle(e: { text: string }) {
  return e.text.startsWith('!') ? { swallow: true, reason: 'Handled by the plugin.' } : { text: e.text.toUpperCase() };
}

test('an input hook changes the text before it is stored and sent', async () => {
  h = createHarness([text('ok')], { hooks: registryWith({ input: (e: { text: string }) => ({ text: e.text.toUpperCase() }) }) });
  await h.agent.prompt(h.sessionId, 'quiet words');
  const user = h.pathMessages().find((m) => m.role === 'user');
  expect(textOf(user)).toBe('QUIET WORDS');
  expect(textOf(h.provider.requests[0]!.messages.at(-1))).toBe('QUIET WORDS');
});

test('an input hook that swallows the message stores nothing, calls no model, and tells the user why', async () => {
  h = createHarness([text('never')], { hooks: registryWith({ input: () => ({ swallow: true, reason: 'The plugin answered this itself.' }) }) });
  const result = await h.agent.prompt(h.sessionId, '!ping');
  expect(result.reason).toBe('stop');
  expect(h.provider.requests).toHaveLength(0);
  expect(h.pathMessages()).toEqual([]);
  expect(h.events).toContainEqual(expect.objectContaining({ type: 'notice', code: 'input_handled', message: 'The plugin answered this itself.' }));
});

test('follow-up messages pass through the input hooks too: changed, or handled by the plugin and never stored', async () => {
  h = createHarness([text('first'), text('second')], { hooks: registryWith({ input: shoutOrHandle }) });
  const run = h.agent.start(h.sessionId, 'q1');
  expect(h.agent.followUp(h.sessionId, 'q2')).toBe(true);
  expect(h.agent.followUp(h.sessionId, '!skip')).toBe(true);
  expect((await run.done).reason).toBe('stop');
  expect(transcript(h.pathMessages())).toEqual(['user:Q1', 'assistant:first', 'user:Q2', 'assistant:second']);
  expect(h.events.filter((e) => e.type === 'notice' && e.code === 'input_handled')).toHaveLength(1);
});

test('before_agent_start adds system-prompt text to every request of the run and messages the model reads but the user does not see', async () => {
  h = createHarness([text('ok')], {
    hooks: registryWith({
      before_agent_start: (e: { prompt: string }) => ({ systemPrompt: `Answer "${e.prompt}" briefly.`, messages: ['Today is a holiday.'] }),
    }),
  });
  await h.agent.prompt(h.sessionId, 'what now');
  const request = h.provider.requests[0]!;
  expect(request.systemPrompt).toBe('You are a test.\n\nAnswer "what now" briefly.');
  expect(request.messages.map((m) => textOf(m))).toEqual(['what now', 'Today is a holiday.']);
  const added = h.path().find((e) => e.type === 'custom_message');
  expect(added).toMatchObject({ customType: 'amber.hook', display: false, content: 'Today is a holiday.' });
});

test('session_start reaches listeners with the reason, outside any run', async () => {
  h = createHarness([]);
  h.agent.sessionStarted(h.sessionId, 'resume');
  expect(h.events).toEqual([{ type: 'session_start', sessionId: h.sessionId, runId: '', reason: 'resume' }]);
});
