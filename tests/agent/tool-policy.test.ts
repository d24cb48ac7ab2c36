import { afterEach, describe, expect, test } from 'vitest';
import type { ToolSource } from '../../src/main/agent/index.ts';
import type { ApprovalAnswer, ApprovalQuestion } from '../../src/shared/agent/index.ts';
import type { ToolResultMessage } from '../../src/shared/sessions/index.ts';
import type { ToolSpec } from '../../src/shared/tools/index.ts';
import { createHarness, textOf, type Harness } from './agent-harness.ts';
import { calls, text } from './scripted-provider.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const read: ToolSpec = {
  name: 'read',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  readOnly: true,
  pathParams: ['path'],
};
const write: ToolSpec = {
  name: 'write',
  description: 'Write a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  readOnly: false,
  pathParams: ['path'],
};
const shell: ToolSpec = {
  name: 'shell',
  description: 'Run a command.',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
  readOnly: false,
};

function recordingTools(): ToolSource & { ran: string[] } {
  const tools = {
    ran: [] as string[],
    list: () => [read, write, shell],
    execute: async (name: string, args: Record<string, unknown>) => {
      tools.ran.push(`${name}:${String(args['path'] ?? args['command'])}`);
      return { content: [{ type: 'text' as const, text: `${name} done` }], isError: false };
    },
  };
  return tools;
}

const results = (harness: Harness): ToolResultMessage[] => harness.pathMessages().filter((m): m is ToolResultMessage => m.role === 'toolResult');

describe('tool dispatch under the policy', () => {
  test('an unknown tool, bad arguments and a repeat of the previous turn are denied with the reason, and the run goes on', async () => {
    const tools = recordingTools();
    h = createHarness(
      [
        calls({ name: 'delete_everything', args: {} }, { name: 'read', args: { file: 'x' } }, { name: 'read', args: { path: 'a.txt' } }),
        calls({ name: 'read', args: { path: 'a.txt' } }),
        text('ok'),
      ],
      { tools },
    );
    expect((await h.agent.prompt(h.sessionId, 'go')).reason).toBe('stop');
    const r = results(h);
    expect(r.map((x) => x.status)).toEqual(['denied', 'denied', 'ok', 'denied']);
    expect(textOf(r[0])).toMatch(/no tool named delete_everything/);
    expect(textOf(r[1])).toMatch(/do not match its schema.*required property 'path'/);
    expect(textOf(r[3])).toMatch(/already made in your previous turn/);
    expect(tools.ran).toEqual(['read:a.txt']);
    const ends = h.events.filter((e) => e.type === 'tool_execution_end').map((e) => (e.type === 'tool_execution_end' ? e.status : ''));
    expect(ends).toEqual(['denied', 'denied', 'ok', 'denied']);
  });

  test('read mode runs read-only tools only', async () => {
    const tools = recordingTools();
    h = createHarness([calls({ name: 'read', args: { path: 'a' } }, { name: 'write', args: { path: 'a', content: 'x' } }), text('ok')], { tools });
    h.policy!.setMode(h.sessionId, 'read');
    await h.agent.prompt(h.sessionId, 'go');
    expect(results(h).map((x) => x.status)).toEqual(['ok', 'denied']);
    expect(textOf(results(h)[1])).toMatch(/read mode/);
    expect(tools.ran).toEqual(['read:a']);
  });

  test('write mode runs writes inside the workspace; with no approver anything else is denied', async () => {
    const tools = recordingTools();
    h = createHarness(
      [
        calls(
          { name: 'write', args: { path: 'src/a.ts', content: 'x' } },
          { name: 'write', args: { path: '../outside.ts', content: 'x' } },
          { name: 'shell', args: { command: 'make' } },
        ),
        text('ok'),
      ],
      { tools },
    );
    await h.agent.prompt(h.sessionId, 'go');
    expect(results(h).map((x) => x.status)).toEqual(['ok', 'denied', 'denied']);
    expect(textOf(results(h)[1])).toMatch(/outside the workspace.*No one is there to approve/);
    expect(tools.ran).toEqual(['write:src/a.ts']);
  });

  test('yolo mode runs everything', async () => {
    const tools = recordingTools();
    h = createHarness([calls({ name: 'write', args: { path: '/elsewhere/x', content: 'x' } }, { name: 'shell', args: { command: 'make' } }), text('ok')], {
      tools,
    });
    h.policy!.setMode(h.sessionId, 'yolo');
    await h.agent.prompt(h.sessionId, 'go');
    expect(results(h).map((x) => x.status)).toEqual(['ok', 'ok']);
  });

  test('approvals: once runs the call, deny refuses it, always for this tool stops asking', async () => {
    const tools = recordingTools();
    const answers: ApprovalAnswer[] = ['once', 'deny', 'always_tool'];
    const asked: ApprovalQuestion[] = [];
    h = createHarness(
      [
        calls({ name: 'shell', args: { command: 'one' } }),
        calls({ name: 'shell', args: { command: 'two' } }),
        calls({ name: 'shell', args: { command: 'three' } }),
        calls({ name: 'shell', args: { command: 'four' } }),
        text('ok'),
      ],
      {
        tools,
        approver: async (q) => {
          asked.push(q);
          return answers.shift() ?? 'deny';
        },
      },
    );
    await h.agent.prompt(h.sessionId, 'go');
    expect(results(h).map((x) => x.status)).toEqual(['ok', 'denied', 'ok', 'ok']);
    expect(textOf(results(h)[1])).toMatch(/declined/);
    expect(tools.ran).toEqual(['shell:one', 'shell:three', 'shell:four']);
    expect(asked.map((q) => (q.args as { command: string }).command)).toEqual(['one', 'two', 'three']);
    expect(asked[0]).toMatchObject({ sessionId: h.sessionId, toolName: 'shell', folder: null });
  });

  test('an abort while an approval is pending denies the call and ends the run', async () => {
    const tools = recordingTools();
    let asked: (() => void) | undefined;
    const isAsked = new Promise<void>((res) => (asked = res));
    h = createHarness([calls({ name: 'shell', args: { command: 'rm' } })], {
      tools,
      approver: () => {
        asked?.();
        return new Promise<ApprovalAnswer>(() => {});
      },
    });
    const run = h.agent.start(h.sessionId, 'go');
    await isAsked;
    h.agent.abort(h.sessionId);
    expect((await run.done).reason).toBe('aborted');
    expect(results(h).map((x) => x.status)).toEqual(['denied']);
    expect(tools.ran).toEqual([]);
  });

  test('parallel calls in one turn are asked about one by one; an always-for-this-folder answer runs the waiting call it covers without asking it', async () => {
    const tools = recordingTools();
    const asked: ApprovalQuestion[] = [];
    const answers = new Map<string, (a: ApprovalAnswer) => void>();
    let onAsked: (() => void) | undefined;
    h = createHarness(
      [
        calls(
          { name: 'write', args: { path: '/out/a.txt', content: '1' } },
          { name: 'write', args: { path: '/out/sub/b.txt', content: '2' } },
          { name: 'write', args: { path: '/other/c.txt', content: '3' } },
        ),
        text('ok'),
      ],
      {
        tools,
        approver: (q) =>
          new Promise((answer) => {
            asked.push(q);
            answers.set((q.args as { path: string }).path, answer);
            onAsked?.();
          }),
      },
    );
    const threeAsked = new Promise<void>((res) => (onAsked = () => asked.length === 3 && res()));
    const run = h.agent.start(h.sessionId, 'go');
    await threeAsked;
    answers.get('/out/a.txt')!('always_folder');
    answers.get('/other/c.txt')!('deny');
    expect((await run.done).reason).toBe('stop');
    expect(results(h).map((x) => x.status)).toEqual(['ok', 'ok', 'denied']);
    expect(tools.ran).toEqual(['write:/out/a.txt', 'write:/out/sub/b.txt']);
    expect(asked).toHaveLength(3);
  });
});
