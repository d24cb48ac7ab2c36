// Hooks in real plugin processes shaping runs against a loopback OpenAI-compatible server: a plugin blocks a
// tool call with a reason the model and the user read, rewrites a request's context without touching the
// stored session, a throwing and a hanging hook are each skipped with one extension_error, and switching the
// plugin off removes its hooks. A tool_call hook that throws, hangs or dies blocks its call (fails closed)
// unless the plugin declared it advisory.
import { afterEach, expect, test } from 'vitest';
import { type AgentHooks, AgentService } from '../../src/main/agent/index.ts';
import type { AgentEvent } from '../../src/shared/agent/index.ts';
import type { ToolSpec } from '../../src/shared/tools/index.ts';
import { loopbackModel } from '../fixtures/loopback-model.ts';
import { openAiStream, type ProviderServer, startProviderServer } from '../fixtures/provider-server.ts';
import { createHarness, example, fixture, type Harness } from './plugin-harness.ts';

let h: Harness | undefined;
let server: ProviderServer | undefined;
let agent: AgentService | undefined;
afterEach(async () => {
  await agent?.dispose();
  await h?.close();
  await server?.close();
  agent = undefined;
  h = undefined;
  server = undefined;
});

const writeNote: ToolSpec = {
  name: 'write_note',
  description: 'Writes a note.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  readOnly: false,
};
type Body = { messages: { role: string; content: unknown }[] };

async function setUp(
  mode: 'guard' | 'faulty' | 'crash' | 'throw_call' | 'hang_call' | 'advisory_call',
  hooksOf: (h: Harness) => AgentHooks = (harness) => harness.service.registries.hooks,
) {
  h = createHarness([fixture('hooks')], { restartBackoffMs: 60_000 });
  h.config.set('hooks', { mode });
  await h.service.start();
  expect(h.service.get('hooks').state).toBe('active');
  server = await startProviderServer();
  const events: AgentEvent[] = [];
  const written: unknown[] = [];
  agent = new AgentService({
    store: h.store,
    ...loopbackModel(server),
    tools: { list: () => [writeNote], execute: async (_name, args) => (written.push(args), { content: [{ type: 'text', text: 'written' }], isError: false }) },
    gate: { authorize: async () => ({ allowed: true }) },
    hooks: hooksOf(h),
    emit: (e) => events.push(e),
  });
  const session = h.store.create({ title: 'hooks', cwd: h.dir });
  return { sessionId: session.id, events, written, server, harness: h, agent };
}

/** A call of the example plugin's greeting tool, as a tool_call hook sees it. */
function call(name: string) {
  return { sessionId: 's', toolCallId: 'c', toolName: 'example_greet', args: { name } };
}

/** The plugins' hooks with a time limit of 300 ms each. */
function shortLimit(harness: Harness): AgentHooks {
  return { run: (point, payload, options) => harness.service.registries.hooks.run(point, payload, { ...options, timeoutMs: 300 }) };
}

const bodyOf = (s: ProviderServer, i: number) => s.requests[i]!.body as Body;

test('a plugin blocks a tool call with a reason that the model reads and the stored result (the card) shows', async () => {
  const { sessionId, events, written, server: s, harness } = await setUp('guard');
  s.setScript([
    openAiStream({ toolCalls: [{ id: 'call_1', name: 'write_note', arguments: { text: 'hi' } }] }),
    openAiStream({ text: 'I could not write it.' }),
    openAiStream({ text: 'done' }),
  ]);
  const result = await agent!.prompt(sessionId, 'Write a note.');
  expect(result.reason).toBe('stop');
  expect(written).toEqual([]);
  const reason = "Blocked by the plugin 'hooks': Notes are read-only while the audit runs.";
  const end = events.find((e) => e.type === 'tool_execution_end');
  expect(end).toMatchObject({ status: 'denied' });
  const stored = harness.store.path(sessionId).find((e) => e.type === 'message' && e.message.role === 'toolResult');
  expect(JSON.stringify(stored)).toContain(reason);
  const toolMessage = bodyOf(s, 1).messages.find((m) => m.role === 'tool');
  expect(JSON.stringify(toolMessage?.content)).toContain(reason);
});

test("a plugin's context hook rewrites what the model receives while the stored session keeps the user's words", async () => {
  const { sessionId, server: s, harness } = await setUp('guard');
  s.setScript([openAiStream({ text: 'Hello.' })]);
  expect((await agent!.prompt(sessionId, 'my original words')).reason).toBe('stop');
  const sent = bodyOf(s, 0).messages.filter((m) => m.role === 'user');
  expect(sent.at(-1)?.content).toBe('REWRITTEN BY A HOOK');
  expect(JSON.stringify(bodyOf(s, 0).messages)).not.toContain('my original words');
  const user = harness.store.path(sessionId).find((e) => e.type === 'message' && e.message.role === 'user');
  expect(user).toMatchObject({ message: { content: 'my original words' } });
});

test('a throwing hook and a hanging hook are each skipped with one extension_error, and the run finishes', async () => {
  const { sessionId, events, server: s, harness } = await setUp('faulty', shortLimit);
  s.setScript([openAiStream({ text: 'All fine.' })]);
  const result = await agent!.prompt(sessionId, 'hello');
  expect(result.reason).toBe('stop');
  const errors = events.filter((e) => e.type === 'extension_error');
  expect(errors).toEqual([
    expect.objectContaining({
      pluginId: 'hooks',
      hook: 'input',
      message: expect.stringMatching(/failed in its input hook, so it was skipped: the input hook broke/),
    }),
    expect.objectContaining({
      pluginId: 'hooks',
      hook: 'context',
      message: "The plugin 'hooks' did not answer its context hook within 300 ms, so it was skipped.",
    }),
  ]);
  // The user's text went through unchanged and the model's reply was kept.
  expect(
    bodyOf(s, 0)
      .messages.filter((m) => m.role === 'user')
      .at(-1)?.content,
  ).toBe('hello');
  expect(JSON.stringify(harness.store.path(sessionId).at(-1))).toContain('All fine.');
  expect(harness.service.get('hooks').state).toBe('active');
});

/** The stored result of the run's one tool call. */
function storedResult(harness: Harness, sessionId: string) {
  const entry = harness.store.path(sessionId).find((e) => e.type === 'message' && e.message.role === 'toolResult');
  return entry?.type === 'message' ? (entry.message as { status?: string; content: { text?: string }[] }) : undefined;
}

const noteCall = () => [
  openAiStream({ toolCalls: [{ id: 'call_1', name: 'write_note', arguments: { text: 'hi' } }] }),
  openAiStream({ text: 'Noted.' }),
  openAiStream({ text: 'done' }),
];

test('hostile: a plugin that dies inside its tool_call hook blocks that call with the reason (fails closed), and its hooks are gone', async () => {
  const { sessionId, events, written, server: s, harness } = await setUp('crash');
  s.setScript(noteCall());
  expect((await agent!.prompt(sessionId, 'Write a note.')).reason).toBe('stop');
  expect(written).toEqual([]);
  const stored = storedResult(harness, sessionId);
  expect(stored?.status).toBe('denied');
  expect(stored?.content[0]?.text).toMatch(/^Blocked: the plugin 'hooks' failed in its tool_call hook \(.*stopped.*\), so the call was not run\.$/);
  expect(events.filter((e) => e.type === 'extension_error')).toEqual([]);
  await harness.until('hooks', (info) => info.state === 'failed');
  expect(harness.service.registries.hooks.size).toBe(0);
});

test('a tool_call hook that throws in a real plugin process blocks the call, and the card says which plugin and why', async () => {
  const { sessionId, written, server: s, harness } = await setUp('throw_call');
  s.setScript(noteCall());
  expect((await agent!.prompt(sessionId, 'Write a note.')).reason).toBe('stop');
  expect(written).toEqual([]);
  const stored = storedResult(harness, sessionId);
  expect(stored?.status).toBe('denied');
  expect(stored?.content[0]?.text).toBe("Blocked: the plugin 'hooks' failed in its tool_call hook (the audit log is unreachable), so the call was not run.");
  // The model reads the same reason.
  expect(JSON.stringify(bodyOf(s, 1).messages.find((m) => m.role === 'tool')?.content)).toContain('the audit log is unreachable');
  expect(harness.service.get('hooks').state).toBe('active');
});

test('a tool_call hook that never answers blocks the call once its time limit passes', async () => {
  const { sessionId, written, server: s, harness } = await setUp('hang_call', shortLimit);
  s.setScript(noteCall());
  expect((await agent!.prompt(sessionId, 'Write a note.')).reason).toBe('stop');
  expect(written).toEqual([]);
  expect(storedResult(harness, sessionId)?.content[0]?.text).toBe(
    "Blocked: the plugin 'hooks' did not answer its tool_call hook within 300 ms, so the call was not run.",
  );
});

test('a tool_call hook the plugin declared advisory fails open: it is skipped with one extension_error and the call runs', async () => {
  const { sessionId, events, written, server: s, harness } = await setUp('advisory_call');
  expect(harness.service.registries.hooks.entries().map((e) => e.value.advisory)).toEqual([true]);
  s.setScript(noteCall());
  expect((await agent!.prompt(sessionId, 'Write a note.')).reason).toBe('stop');
  expect(written).toEqual([{ text: 'hi' }]);
  expect(storedResult(harness, sessionId)?.status).toBe('ok');
  expect(events.filter((e) => e.type === 'extension_error')).toEqual([
    expect.objectContaining({
      pluginId: 'hooks',
      hook: 'tool_call',
      message: expect.stringMatching(/failed in its tool_call hook, so it was skipped: the audit log is unreachable/),
    }),
  ]);
});

test('switching the plugin off removes its hooks: the call it blocked now runs', async () => {
  const { sessionId, written, server: s, harness } = await setUp('guard');
  expect(harness.service.registries.hooks.size).toBe(2);
  await harness.service.setState('hooks', false);
  expect(harness.service.registries.hooks.size).toBe(0);
  s.setScript([
    openAiStream({ toolCalls: [{ id: 'call_1', name: 'write_note', arguments: { text: 'hi' } }] }),
    openAiStream({ text: 'Written.' }),
    openAiStream({ text: 'done' }),
  ]);
  expect((await agent!.prompt(sessionId, 'my words')).reason).toBe('stop');
  expect(written).toEqual([{ text: 'hi' }]);
  expect(
    bodyOf(s, 0)
      .messages.filter((m) => m.role === 'user')
      .at(-1)?.content,
  ).toBe('my words');
});

test("the example plugin's hooks answer from its process: a swallowed input, a blocked greeting, tidied arguments", async () => {
  h = createHarness([example()]);
  await h.service.start();
  const hooks = h.service.registries.hooks;
  expect(hooks.entries().map((e) => e.value.point)).toEqual(['input', 'before_agent_start', 'context', 'tool_call', 'tool_result']);
  const errors: string[] = [];
  const onError = (f: { message: string }) => errors.push(f.message);
  expect((await hooks.run('input', { sessionId: 's', text: '!example ping' }, { onError })).stop?.reason).toMatch(/example plugin handled this message/);
  expect((await hooks.run('tool_call', call('nobody'), { onError })).stop).toEqual({
    pluginId: 'example',
    reason: 'The example plugin does not greet nobody.',
  });
  expect((await hooks.run('tool_call', call('  Ada '), { onError })).payload.args).toEqual({ name: 'Ada' });
  expect(errors).toEqual([]);
});
