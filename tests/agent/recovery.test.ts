import { afterEach, describe, expect, test } from 'vitest';
import type { ToolSource } from '../../src/main/agent/index.ts';
import type { Entry } from '../../src/shared/sessions/index.ts';
import type { ToolSpec } from '../../src/shared/tools/index.ts';
import { createHarness, textOf, type Harness } from './agent-harness.ts';
import { calls, reply, text } from './scripted-provider.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const echo: ToolSpec = { name: 'echo', description: 'Echo text back.', parameters: { type: 'object' }, readOnly: true };
function countingTools(fail = false): ToolSource & { runs: number } {
  const tools = {
    runs: 0,
    list: () => [echo],
    execute: async (_n: string, args: Record<string, unknown>) => {
      tools.runs++;
      if (fail) throw new Error(`no such file: ${String(args['text'])}`);
      return { content: [{ type: 'text' as const, text: String(args['text']) }], isError: false };
    },
  };
  return tools;
}

const steers = (entries: Entry[]): string[] =>
  entries.flatMap((e) => (e.type === 'custom_message' && e.customType === 'amber.recovery' ? [String(e.content)] : []));

describe('recovery', () => {
  test('three identical tool-call sets in a row stop the run (loop detected); the third set is not run', async () => {
    const tools = countingTools();
    const same = calls({ name: 'echo', args: { text: 'x' } }, { name: 'echo', args: { text: 'y' } }); // a script replays alike
    h = createHarness([same, same, same, text('never reached')], { tools });
    const result = await h.agent.prompt(h.sessionId, 'go');
    expect(result.reason).toBe('loop_detected');
    expect(result.error).toMatch(/same tool calls 3 times in a row/);
    expect(h.provider.requests).toHaveLength(3);
    expect(tools.runs).toBe(2); // round 2 was denied as a repeat of round 1; round 3 never ran
    const results = h.pathMessages().filter((m) => m.role === 'toolResult');
    expect(results.map((r) => r['status'])).toEqual(['ok', 'ok', 'denied', 'denied', 'denied', 'denied']);
    expect(textOf(results[4])).toMatch(/loop detected/);
    expect(h.events.at(-2)).toMatchObject({ type: 'agent_end', reason: 'loop_detected' });
  });

  test('the same tool calls with other calls in between are not a loop', async () => {
    const tools = countingTools();
    const a = calls({ name: 'echo', args: { text: 'a' } });
    const b = calls({ name: 'echo', args: { text: 'b' } });
    h = createHarness([a, b, a, b, text('done')], { tools });
    expect((await h.agent.prompt(h.sessionId, 'go')).reason).toBe('stop');
    expect(tools.runs).toBe(4);
  });

  test('the same reply text a second time draws a steer the model sees next turn', async () => {
    h = createHarness([reply({ text: 'I will check.', calls: [{ name: 'echo', args: { text: '1' } }] }), text('I will check.'), text('Here is the answer.')], {
      tools: countingTools(),
    });
    const result = await h.agent.prompt(h.sessionId, 'go');
    expect(result.reason).toBe('stop');
    const stored = steers(h.path());
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/exact reply 2 times/);
    const third = h.provider.requests[2]!.messages;
    expect(third.at(-1)).toMatchObject({ role: 'user', content: stored[0] });
    expect(h.events.some((e) => e.type === 'entry_appended' && e.entry.type === 'custom_message')).toBe(true);
  });

  test('the same reply text a fifth time stops the run', async () => {
    const scripts = [1, 2, 3, 4, 5, 6].map((i) => reply({ text: 'Working on it.', calls: [{ name: 'echo', args: { text: String(i) } }] }));
    const tools = countingTools();
    h = createHarness(scripts, { tools });
    const result = await h.agent.prompt(h.sessionId, 'go');
    expect(result.reason).toBe('recovery_stop');
    expect(result.error).toMatch(/same reply 5 times/);
    expect(h.provider.requests).toHaveLength(5);
    expect(tools.runs).toBe(4);
    expect(steers(h.path())).toHaveLength(3); // after the 2nd, 3rd and 4th
  });

  test('three tool failures in a row draw a recovery steer; six stop the run', async () => {
    const scripts = [1, 2, 3, 4, 5, 6, 7].map((i) => calls({ name: 'echo', args: { text: `f${i}` } }));
    const tools = countingTools(true);
    h = createHarness(scripts, { tools });
    const result = await h.agent.prompt(h.sessionId, 'go');
    expect(result.reason).toBe('recovery_stop');
    expect(result.error).toMatch(/6 tool calls failed in a row/);
    expect(tools.runs).toBe(6);
    const path = h.path();
    const stored = steers(path);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/last 3 tool calls failed/);
    // The steer sits right after the third failure and reaches the fourth request.
    const steerIndex = path.findIndex((e) => e.type === 'custom_message');
    const before = path.slice(0, steerIndex).filter((e) => e.type === 'message' && e.message.role === 'toolResult');
    expect(before).toHaveLength(3);
    expect(h.provider.requests[3]!.messages.at(-1)).toMatchObject({ role: 'user', content: stored[0] });
  });

  test('a success resets the failure count', async () => {
    let n = 0;
    const tools: ToolSource = {
      list: () => [echo],
      execute: async () => {
        n++;
        if (n % 3 === 0) return { content: [{ type: 'text', text: 'ok' }], isError: false };
        return { content: [{ type: 'text', text: 'bad' }], isError: true };
      },
    };
    const scripts = [1, 2, 3, 4, 5, 6].map((i) => calls({ name: 'echo', args: { text: `t${i}` } }));
    h = createHarness([...scripts, text('done')], { tools });
    expect((await h.agent.prompt(h.sessionId, 'go')).reason).toBe('stop');
    expect(steers(h.path())).toHaveLength(0);
  });
});
