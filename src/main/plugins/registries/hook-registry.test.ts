import { expect, test } from 'vitest';
import type { HookFailure } from '../../../shared/plugins/index.ts';
import { HookRegistry } from './hook-registry.ts';

const tool = (args: Record<string, unknown>) => ({ sessionId: 's', toolCallId: 'c1', toolName: 'write', args });

function collect(): { failures: HookFailure[]; onError: (f: HookFailure) => void } {
  const failures: HookFailure[] = [];
  return { failures, onError: (f) => failures.push(f) };
}

test("hooks run in load order, each seeing the previous one's change", async () => {
  const registry = new HookRegistry();
  const seen: string[] = [];
  registry.register('a', HookRegistry.key('a', 'input'), {
    point: 'input',
    invoke: async (p) => (seen.push(`a:${(p as { text: string }).text}`), { text: 'one' }),
  });
  registry.register('b', HookRegistry.key('b', 'input'), {
    point: 'input',
    invoke: async (p) => (seen.push(`b:${(p as { text: string }).text}`), { text: `${(p as { text: string }).text} two` }),
  });
  const out = await registry.run('input', { sessionId: 's', text: 'start' }, collect());
  expect(seen).toEqual(['a:start', 'b:one']);
  expect(out.payload.text).toBe('one two');
  expect(out.stop).toBeUndefined();
});

test('a blocking tool_call hook stops the chain with its reason; later hooks are not called', async () => {
  const registry = new HookRegistry();
  let laterCalled = false;
  registry.register('guard', HookRegistry.key('guard', 'tool_call'), {
    point: 'tool_call',
    invoke: async () => ({ block: true, reason: 'Writes are frozen today.' }),
  });
  registry.register('later', HookRegistry.key('later', 'tool_call'), { point: 'tool_call', invoke: async () => ((laterCalled = true), null) });
  const out = await registry.run('tool_call', tool({ path: 'a' }), collect());
  expect(out.stop).toEqual({ pluginId: 'guard', reason: 'Writes are frozen today.' });
  expect(laterCalled).toBe(false);
});

test('an advisory tool_call hook that throws is skipped and reported; the next one still runs', async () => {
  const registry = new HookRegistry();
  const { failures, onError } = collect();
  registry.register('bad', HookRegistry.key('bad', 'tool_call'), { point: 'tool_call', advisory: true, invoke: () => Promise.reject(new Error('boom')) });
  registry.register('good', HookRegistry.key('good', 'tool_call'), { point: 'tool_call', invoke: async () => ({ args: { path: 'b' } }) });
  const out = await registry.run('tool_call', tool({ path: 'a' }), { onError });
  expect(out.payload.args).toEqual({ path: 'b' });
  expect(failures).toEqual([
    { pluginId: 'bad', hook: 'tool_call', message: expect.stringMatching(/^The plugin 'bad' failed in its tool_call hook, so it was skipped: boom/) },
  ]);
});

test('a hook that outlasts its time limit is skipped with a sentence naming the limit', async () => {
  const registry = new HookRegistry();
  const { failures, onError } = collect();
  registry.register('slow', HookRegistry.key('slow', 'context'), { point: 'context', invoke: () => new Promise(() => {}) });
  const started = Date.now();
  const out = await registry.run('context', { sessionId: 's', messages: [] }, { onError, timeoutMs: 50 });
  expect(Date.now() - started).toBeLessThan(2000);
  expect(out.payload.messages).toEqual([]);
  expect(failures).toHaveLength(1);
  expect(failures[0]!.message).toBe("The plugin 'slow' did not answer its context hook within 50 ms, so it was skipped.");
});

test('an answer in the wrong shape is refused, reported, and changes nothing (hostile: args that are not an object)', async () => {
  const registry = new HookRegistry();
  const { failures, onError } = collect();
  registry.register('odd', HookRegistry.key('odd', 'tool_call'), { point: 'tool_call', advisory: true, invoke: async () => ({ args: 'rm -rf /' }) });
  registry.register('odd2', HookRegistry.key('odd2', 'tool_result'), { point: 'tool_result', invoke: async () => ({ result: { content: 'not a list' } }) });
  const call = await registry.run('tool_call', tool({ path: 'a' }), { onError });
  expect(call.payload.args).toEqual({ path: 'a' });
  const result = { content: [{ type: 'text' as const, text: 'ok' }], isError: false };
  const after = await registry.run('tool_result', { ...tool({}), result }, { onError });
  expect(after.payload.result).toBe(result);
  expect(failures.map((f) => f.message)).toEqual([
    expect.stringMatching(/answered its tool_call hook in the wrong shape.*args/),
    expect.stringMatching(/answered its tool_result hook in the wrong shape/),
  ]);
});

test('before_agent_start additions accumulate: each hook sees what the earlier ones added', async () => {
  const registry = new HookRegistry();
  let seenBySecond: unknown;
  registry.register('a', HookRegistry.key('a', 'before_agent_start'), {
    point: 'before_agent_start',
    invoke: async () => ({ systemPrompt: 'Be brief.', messages: ['note 1'] }),
  });
  registry.register('b', HookRegistry.key('b', 'before_agent_start'), {
    point: 'before_agent_start',
    invoke: async (p) => ((seenBySecond = p), { systemPrompt: 'Use metric units.' }),
  });
  const out = await registry.run('before_agent_start', { sessionId: 's', prompt: 'hi', systemPrompt: '', messages: [] }, collect());
  expect(seenBySecond).toMatchObject({ systemPrompt: 'Be brief.', messages: ['note 1'] });
  expect(out.payload).toMatchObject({ systemPrompt: 'Be brief.\n\nUse metric units.', messages: ['note 1'] });
});

test('disposing a registration removes the hook: a plugin switched off is no longer called', async () => {
  const registry = new HookRegistry();
  let calls = 0;
  const d = registry.register('p', HookRegistry.key('p', 'input'), { point: 'input', invoke: async () => (calls++, { text: 'changed' }) });
  expect(registry.has('input')).toBe(true);
  d.dispose();
  expect(registry.has('input')).toBe(false);
  const out = await registry.run('input', { sessionId: 's', text: 'same' }, collect());
  expect(out.payload.text).toBe('same');
  expect(calls).toBe(0);
});

test('a tool_call hook that throws, outlasts its limit or answers in the wrong shape blocks the call (fails closed); later hooks are not asked', async () => {
  const cases: [string, () => Promise<unknown>, string][] = [
    ['throws', () => Promise.reject(new Error('guard broke.')), "the plugin 'guard' failed in its tool_call hook (guard broke), so the call was not run."],
    ['hangs', () => new Promise(() => {}), "the plugin 'guard' did not answer its tool_call hook within 50 ms, so the call was not run."],
    [
      'odd',
      async () => ({ block: 'yes' }),
      "the plugin 'guard' answered its tool_call hook in the wrong shape (block: Invalid input: expected boolean, received string), so the call was not run.",
    ],
  ];
  for (const [name, invoke, reason] of cases) {
    const registry = new HookRegistry();
    const { failures, onError } = collect();
    let laterCalled = false;
    registry.register('guard', HookRegistry.key('guard', 'tool_call'), { point: 'tool_call', invoke });
    registry.register('later', HookRegistry.key('later', 'tool_call'), { point: 'tool_call', invoke: async () => ((laterCalled = true), null) });
    const out = await registry.run('tool_call', tool({ path: 'a' }), { onError, timeoutMs: 50 });
    expect(out.stop, name).toEqual({ pluginId: 'guard', reason, failed: true });
    expect(out.payload.args).toEqual({ path: 'a' });
    expect(laterCalled).toBe(false);
    expect(failures).toEqual([]);
  }
});

test('at the other points a failing hook is skipped as before, never a block', async () => {
  const registry = new HookRegistry();
  const { failures, onError } = collect();
  registry.register('bad', HookRegistry.key('bad', 'tool_result'), { point: 'tool_result', invoke: () => Promise.reject(new Error('boom')) });
  const result = { content: [{ type: 'text' as const, text: 'ok' }], isError: false };
  const out = await registry.run('tool_result', { ...tool({}), result }, { onError });
  expect(out.stop).toBeUndefined();
  expect(out.payload.result).toBe(result);
  expect(failures).toHaveLength(1);
});
