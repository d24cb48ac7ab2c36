import { describe, expect, test } from 'vitest';
import type { ToolCall, ToolResultMessage } from '../../shared/sessions/index.ts';
import type { ToolOutput, ToolSpec } from '../../shared/tools/index.ts';
import type { ApprovalAnswer, ApprovalQuestion } from '../../shared/agent/index.ts';
import { PolicyService, type GateDecision, type ToolGate, type ToolRequest } from '../policy/index.ts';
import { SettingsService } from '../settings/index.ts';
import { SchemaValidatorCache } from './schema-validator-cache.ts';
import { HookRegistry } from '../plugins/index.ts';
import { ToolDispatcher, callSignature, type ToolSource } from './tool-dispatcher.ts';

const echo: ToolSpec = {
  name: 'echo',
  description: 'echo text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  readOnly: true,
};
const allowAll: ToolGate = { authorize: async () => ({ allowed: true }) };
const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ type: 'toolCall', id, name, arguments: args });
const text = (r: ToolResultMessage): string => r.content.map((c) => ('text' in c ? c.text : '')).join('');
const ok = (t: string): ToolOutput => ({ content: [{ type: 'text', text: t }], isError: false });

function base(calls: ToolCall[], extra: Partial<Parameters<ToolDispatcher['dispatch']>[0]> = {}) {
  return { sessionId: 's', workspaceRoot: '/ws', calls, specs: [echo], previousCalls: [], signal: new AbortController().signal, ...extra };
}

const echoing: ToolSource = { list: () => [echo], execute: async (_n, args) => ok(String(args['text'])) };

describe('tool dispatch', () => {
  test('an unknown tool is denied with the tools that exist', async () => {
    const d = new ToolDispatcher({ tools: echoing, gate: allowAll });
    const [r] = await d.dispatch(base([call('1', 'nope', {})]));
    expect(r).toMatchObject({ status: 'denied', isError: true, toolCallId: '1', toolName: 'nope' });
    expect(text(r!)).toMatch(/no tool named nope.*echo/);
  });

  test('arguments that fail the JSON schema are denied with the reason', async () => {
    let ran = 0;
    const d = new ToolDispatcher({ tools: { ...echoing, execute: async () => (ran++, ok('x')) }, gate: allowAll });
    const [missing, extra, wrongType] = await d.dispatch(
      base([call('1', 'echo', {}), call('2', 'echo', { text: 'a', more: 1 }), call('3', 'echo', { text: 3 })]),
    );
    expect(missing!.status).toBe('denied');
    expect(text(missing!)).toMatch(/must have required property 'text'/);
    expect(text(extra!)).toMatch(/additional properties/);
    expect(text(wrongType!)).toMatch(/must be string/);
    expect(ran).toBe(0);
  });

  test('an identical call from the previous turn is denied, with keys in any order', async () => {
    const spec: ToolSpec = { ...echo, parameters: { type: 'object' } };
    const d = new ToolDispatcher({ tools: echoing, gate: allowAll });
    const previous = [call('old', 'echo', { text: 'a', n: { x: 1, y: 2 } })];
    const results = await d.dispatch(
      base([call('1', 'echo', { n: { y: 2, x: 1 }, text: 'a' }), call('2', 'echo', { text: 'b' })], { specs: [spec], previousCalls: previous }),
    );
    expect(results.map((r) => r.status)).toEqual(['denied', 'ok']);
    expect(text(results[0]!)).toMatch(/already made in your previous turn/);
    expect(callSignature(previous[0]!)).toBe('echo({"n":{"x":1,"y":2},"text":"a"})');
  });

  test('calls run in parallel and results come back in call order though they finish out of order', async () => {
    const release = new Map<string, () => void>();
    const started: string[] = [];
    let allStarted: (() => void) | undefined;
    const everyoneStarted = new Promise<void>((res) => (allStarted = res));
    const tools: ToolSource = {
      list: () => [echo],
      execute: (_n, args) =>
        new Promise((res) => {
          const t = String(args['text']);
          started.push(t);
          release.set(t, () => res(ok(t)));
          if (started.length === 3) allStarted?.();
        }),
    };
    const order: number[] = [];
    const d = new ToolDispatcher({ tools, gate: allowAll });
    const pending = d.dispatch(
      base([call('1', 'echo', { text: 'a' }), call('2', 'echo', { text: 'b' }), call('3', 'echo', { text: 'c' })], { onResult: (_r, i) => order.push(i) }),
    );
    await everyoneStarted;
    release.get('c')!();
    release.get('b')!();
    release.get('a')!();
    const results = await pending;
    expect(results.map((r) => r.toolCallId)).toEqual(['1', '2', '3']);
    expect(results.map(text)).toEqual(['a', 'b', 'c']);
    expect(order).toEqual([0, 1, 2]);
  });

  test('a tool that throws, or returns a malformed result, becomes an error result the model can read', async () => {
    const tools: ToolSource = {
      list: () => [echo],
      execute: async (_n, args) => {
        if (args['text'] === 'throw') throw new Error('disk full');
        return { nonsense: true } as unknown as ToolOutput;
      },
    };
    const d = new ToolDispatcher({ tools, gate: allowAll });
    const [thrown, malformed] = await d.dispatch(base([call('1', 'echo', { text: 'throw' }), call('2', 'echo', { text: 'x' })]));
    expect(thrown).toMatchObject({ status: 'error', isError: true });
    expect(text(thrown!)).toBe('echo failed: disk full');
    expect(malformed!.status).toBe('error');
  });

  test('an isError output is an error result; a gate refusal or a throwing gate is denied', async () => {
    const gate: ToolGate = {
      authorize: async (r): Promise<GateDecision> => {
        if (r.args['text'] === 'secret') return { allowed: false, reason: 'Not allowed here.' };
        if (r.args['text'] === 'crash') throw new Error('policy broke');
        return { allowed: true };
      },
    };
    const tools: ToolSource = { list: () => [echo], execute: async () => ({ content: [{ type: 'text', text: 'bad' }], isError: true }) };
    const d = new ToolDispatcher({ tools, gate });
    const results = await d.dispatch(base([call('1', 'echo', { text: 'x' }), call('2', 'echo', { text: 'secret' }), call('3', 'echo', { text: 'crash' })]));
    expect(results.map((r) => r.status)).toEqual(['error', 'denied', 'denied']);
    expect(text(results[1]!)).toBe('Not allowed here.');
    expect(text(results[2]!)).toMatch(/policy broke/);
  });

  test('an abort ends running tools with an error result at once', async () => {
    const controller = new AbortController();
    let started: (() => void) | undefined;
    const isRunning = new Promise<void>((res) => (started = res));
    const tools: ToolSource = {
      list: () => [echo],
      execute: () => {
        started?.();
        return new Promise(() => {});
      },
    };
    const d = new ToolDispatcher({ tools, gate: allowAll });
    const pending = d.dispatch(base([call('1', 'echo', { text: 'x' })], { signal: controller.signal }));
    await isRunning;
    controller.abort();
    const [r] = await pending;
    expect(r).toMatchObject({ status: 'error' });
    expect(text(r!)).toMatch(/stopped before it finished/);
  });

  test('a plugin re-declaring thousands of distinct schemas does not grow the compiled-schema cache past its bound', async () => {
    const schemas = new SchemaValidatorCache({ capacity: 256 });
    const d = new ToolDispatcher({ tools: echoing, gate: allowAll, schemas });
    for (let i = 0; i < 2000; i++) {
      const spec: ToolSpec = {
        ...echo,
        parameters: { type: 'object', properties: { text: { type: 'string', description: `version ${i}` } }, required: ['text'] },
      };
      const [r] = await d.dispatch(base([call(`c${i}`, 'echo', { text: `t${i}` })], { specs: [spec] }));
      expect(r!.status).toBe('ok');
    }
    expect(schemas.size).toBe(256);
  });

  test('a tool whose schema cannot be compiled is denied with the reason; the other calls of the turn run', async () => {
    const broken: ToolSpec = { name: 'broken', description: 'x', parameters: { type: 'object', properties: { a: { $ref: '#/nowhere' } } }, readOnly: true };
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'array', items: deep };
    const abyss: ToolSpec = { name: 'abyss', description: 'x', parameters: deep, readOnly: true };
    const d = new ToolDispatcher({ tools: echoing, gate: allowAll });
    const results = await d.dispatch(
      base([call('1', 'broken', {}), call('2', 'abyss', {}), call('3', 'echo', { text: 'fine' })], { specs: [broken, abyss, echo] }),
    );
    expect(results.map((r) => r.status)).toEqual(['denied', 'denied', 'ok']);
    expect(text(results[0]!)).toMatch(/^broken cannot be called: its parameter schema is invalid \(can't resolve reference #\/nowhere/);
    expect(text(results[1]!)).toBe('abyss cannot be called: its parameter schema is nested more than 32 levels deep.');
    expect(text(results[2]!)).toBe('fine');
  });
});

function memory(): SettingsService {
  const m = new Map<string, string>();
  return new SettingsService({ store: { getSetting: (k) => m.get(k) ?? null, setSetting: (k, v) => void (v === null ? m.delete(k) : m.set(k, v)) } });
}

describe('tool dispatch under the policy, calls in parallel', () => {
  const write: ToolSpec = {
    name: 'write',
    description: 'write a file',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
    readOnly: false,
    pathParams: ['path'],
  };

  test('each parallel call is asked about on its own: allow once runs the call it answered, identical calls share one question', async () => {
    const questions: { q: ApprovalQuestion; answer: (a: ApprovalAnswer) => void }[] = [];
    let onAsked: (() => void) | undefined;
    const policy = new PolicyService({
      settings: memory(),
      approver: (q) =>
        new Promise((answer) => {
          questions.push({ q, answer });
          onAsked?.();
        }),
    });
    const ran: string[] = [];
    const tools: ToolSource = {
      list: () => [write],
      execute: async (_n, args) => (ran.push(`${String(args['path'])}:${String(args['content'])}`), ok('written')),
    };
    const d = new ToolDispatcher({ tools, gate: policy });
    const twoAsked = new Promise<void>((res) => (onAsked = () => questions.length === 2 && res()));
    const dispatched = d.dispatch(
      base(
        [
          call('1', 'write', { path: '/out/a.txt', content: 'A' }),
          call('2', 'write', { path: '/out/b.txt', content: 'B' }),
          call('3', 'write', { content: 'A', path: '/out/a.txt' }),
        ],
        { specs: [write] },
      ),
    );
    await twoAsked;
    expect(questions.map((x) => x.q.toolCallId)).toEqual(['1', '2']);
    questions[0]!.answer('once');
    questions[1]!.answer('deny');
    const results = await dispatched;
    expect(results.map((r) => r.status)).toEqual(['ok', 'denied', 'ok']);
    expect(ran).toEqual(['/out/a.txt:A', '/out/a.txt:A']);
  });

  test('the gate hears which plugin contributed the tool', async () => {
    const seen: ToolRequest[] = [];
    const gate: ToolGate = { authorize: async (r) => (seen.push(r), { allowed: true }) };
    const d = new ToolDispatcher({ tools: { ...echoing, origin: (name) => (name === 'echo' ? { pluginId: 'peeker', bundled: false } : undefined) }, gate });
    await d.dispatch(base([call('1', 'echo', { text: 'a' })]));
    expect(seen[0]!.origin).toEqual({ pluginId: 'peeker', bundled: false });
  });
});

/** Hooks of one plugin ('guard') at one point, with the failures they report. */
function hooked(point: 'tool_call' | 'tool_result', answer: (payload: unknown) => unknown) {
  const registry = new HookRegistry();
  registry.register('guard', HookRegistry.key('guard', point), { point, invoke: async (p) => answer(p) });
  const errors: string[] = [];
  return { hooks: { hooks: registry, onError: (f: { message: string }) => errors.push(f.message) }, errors };
}

describe('tool hooks', () => {
  test('a tool_call hook that blocks denies the call with its reason, and the tool never runs', async () => {
    let ran = 0;
    const d = new ToolDispatcher({ tools: { ...echoing, execute: async () => (ran++, ok('x')) }, gate: allowAll });
    const { hooks } = hooked('tool_call', () => ({ block: true, reason: 'No echoes on Sundays.' }));
    const [r] = await d.dispatch(base([call('1', 'echo', { text: 'a' })], { hooks }));
    expect(r).toMatchObject({ status: 'denied', isError: true });
    expect(text(r!)).toBe("Blocked by the plugin 'guard': No echoes on Sundays.");
    expect(ran).toBe(0);
  });

  test('changed arguments are what the policy judges and the tool runs with', async () => {
    const judged: unknown[] = [];
    const gate: ToolGate = { authorize: async (req: ToolRequest) => (judged.push(req.args), { allowed: true }) };
    const d = new ToolDispatcher({ tools: echoing, gate });
    const { hooks } = hooked('tool_call', () => ({ args: { text: 'changed' } }));
    const [r] = await d.dispatch(base([call('1', 'echo', { text: 'original' })], { hooks }));
    expect(judged).toEqual([{ text: 'changed' }]);
    expect(text(r!)).toBe('changed');
  });

  test('hostile: changed arguments that break the schema are denied before the policy sees them', async () => {
    let asked = 0;
    const gate: ToolGate = { authorize: async () => (asked++, { allowed: true }) };
    const d = new ToolDispatcher({ tools: echoing, gate });
    const { hooks } = hooked('tool_call', () => ({ args: { text: 'a', path: '/etc/passwd' } }));
    const [r] = await d.dispatch(base([call('1', 'echo', { text: 'a' })], { hooks }));
    expect(r!.status).toBe('denied');
    expect(text(r!)).toMatch(/a plugin changed the arguments of echo.*additional properties/);
    expect(asked).toBe(0);
  });

  test('hostile: changed arguments that the policy refuses are denied (a hook cannot widen what a call may do)', async () => {
    const gate: ToolGate = {
      authorize: async (req: ToolRequest) => (req.args['text'] === 'safe' ? { allowed: true } : { allowed: false, reason: 'Denied by the policy.' }),
    };
    const d = new ToolDispatcher({ tools: echoing, gate });
    const { hooks } = hooked('tool_call', () => ({ args: { text: 'dangerous' } }));
    const [r] = await d.dispatch(base([call('1', 'echo', { text: 'safe' })], { hooks }));
    expect(r).toMatchObject({ status: 'denied' });
    expect(text(r!)).toBe('Denied by the policy.');
  });

  test('a tool_result hook changes the stored result; one that throws leaves it and is reported', async () => {
    const d = new ToolDispatcher({ tools: echoing, gate: allowAll });
    const changed = hooked('tool_result', () => ({ result: { content: [{ type: 'text', text: 'redacted' }], isError: true } }));
    const [r] = await d.dispatch(base([call('1', 'echo', { text: 'secret' })], { hooks: changed.hooks }));
    expect(r).toMatchObject({ status: 'error', isError: true });
    expect(text(r!)).toBe('redacted');
    const broken = hooked('tool_result', () => {
      throw new Error('oops');
    });
    const [kept] = await d.dispatch(base([call('2', 'echo', { text: 'plain' })], { hooks: broken.hooks }));
    expect(text(kept!)).toBe('plain');
    expect(broken.errors).toEqual([expect.stringMatching(/'guard' failed in its tool_result hook.*oops/)]);
  });
});

describe('the sandbox of a shell call', () => {
  const shell: ToolSpec = { name: 'sh', description: 'run a line', parameters: { type: 'object' }, readOnly: false, shell: true };
  const boxed: GateDecision = { allowed: true, sandbox: { mode: 'write', network: false } };

  test('the sandbox the gate decided goes to the tool with the call; a call the gate gave none gets none', async () => {
    const seen: unknown[] = [];
    const tools: ToolSource = { list: () => [shell, echo], execute: async (_n, _a, execution) => (seen.push(execution.sandbox), ok('ran')) };
    const gate: ToolGate = { authorize: async (r) => (r.tool.name === 'sh' ? boxed : { allowed: true }) };
    await new ToolDispatcher({ tools, gate }).dispatch(base([call('1', 'sh', { command: 'ls' }), call('2', 'echo', { text: 'a' })], { specs: [shell, echo] }));
    expect(seen).toEqual([{ mode: 'write', network: false }, undefined]);
  });

  test('a result saying the sandbox could not start is reported to the gate once per such result; an unsandboxed call’s is not', async () => {
    const reports: string[] = [];
    const unavailable: ToolOutput = {
      content: [{ type: 'text', text: 'The sandbox could not start: no user namespaces.' }],
      isError: true,
      details: { sandbox: 'unavailable' },
    };
    const tools: ToolSource = {
      list: () => [shell],
      execute: async (_n, args) => (args['command'] === 'fine' ? { ...ok('x'), details: { sandbox: 'write' } } : unavailable),
    };
    let decision: GateDecision = boxed;
    const gate: ToolGate = { authorize: async () => decision, sandboxUnavailable: (detail) => void reports.push(detail) };
    const d = new ToolDispatcher({ tools, gate });
    const [fine, failed] = await d.dispatch(base([call('1', 'sh', { command: 'fine' }), call('2', 'sh', { command: 'ls' })], { specs: [shell] }));
    expect([fine!.status, failed!.status]).toEqual(['ok', 'error']);
    expect(failed!['details']).toEqual({ sandbox: 'unavailable' });
    expect(reports).toEqual(['The sandbox could not start: no user namespaces.']);
    decision = { allowed: true, sandbox: { mode: 'write', network: false, unsandboxed: true } };
    await d.dispatch(base([call('3', 'sh', { command: 'ls' })], { specs: [shell] }));
    expect(reports).toHaveLength(1);
  });
});

const pathed = (name: string, readOnly: boolean): ToolSpec => ({
  name,
  description: `${name} a file`,
  parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } },
  readOnly,
  pathParams: ['path'],
});

describe('calls that must not overlap', () => {
  const bash: ToolSpec = { name: 'bash', description: 'run a line', parameters: { type: 'object' }, readOnly: false, shell: true, parallel: false };
  const edit = pathed('edit', false);
  const read = pathed('read', true);
  const specs = [bash, edit, read, echo];

  /** A source whose every call takes 40 ms of real time and records when it ran, to see which calls overlapped. */
  function timedTools() {
    const spans = new Map<string, { start: number; end: number }>();
    const tools: ToolSource = {
      list: () => specs,
      execute: async (_n, _args, execution) => {
        const start = performance.now();
        await new Promise((res) => setTimeout(res, 40));
        spans.set(execution.toolCallId, { start, end: performance.now() });
        return ok(execution.toolCallId);
      },
    };
    const overlap = (a: string, b: string): boolean => {
      const x = spans.get(a)!;
      const y = spans.get(b)!;
      return x.start < y.end && y.start < x.end;
    };
    const before = (a: string, b: string): boolean => spans.get(a)!.end <= spans.get(b)!.start;
    return { tools, overlap, before };
  }

  test('calls of a tool declared parallel: false run one after another in call order; other tools run alongside them', async () => {
    const { tools, overlap, before } = timedTools();
    const results = await new ToolDispatcher({ tools, gate: allowAll }).dispatch(
      base([call('1', 'bash', { command: 'mkdir out' }), call('2', 'bash', { command: 'ls out' }), call('3', 'echo', { text: 'a' })], { specs }),
    );
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(before('1', '2')).toBe(true);
    expect(overlap('1', '3')).toBe(true);
  });

  test('edits of one path run in call order however the path is spelled; edits of different paths and reads of the same path run in parallel', async () => {
    const { tools, overlap, before } = timedTools();
    await new ToolDispatcher({ tools, gate: allowAll }).dispatch(
      base(
        [
          call('1', 'edit', { path: 'a.txt', text: 'one' }),
          call('2', 'edit', { path: './a.txt', text: 'two' }),
          call('3', 'edit', { path: 'b.txt', text: 'three' }),
          call('4', 'read', { path: 'a.txt' }),
          call('5', 'edit', { path: '/ws/a.txt', text: 'four' }),
        ],
        { specs },
      ),
    );
    expect(before('1', '2')).toBe(true);
    expect(before('2', '5')).toBe(true);
    expect(overlap('1', '3')).toBe(true);
    expect(overlap('1', '4')).toBe(true);
  });

  test('a stop while calls wait their turn ends them at once without running them', async () => {
    const ran: string[] = [];
    const controller = new AbortController();
    const tools: ToolSource = {
      list: () => specs,
      execute: (_n, _a, execution) => {
        ran.push(execution.toolCallId);
        return new Promise<ToolOutput>(() => controller.abort());
      },
    };
    const results = await new ToolDispatcher({ tools, gate: allowAll }).dispatch(
      base([call('1', 'bash', { command: 'sleep 9' }), call('2', 'bash', { command: 'ls' })], { specs, signal: controller.signal }),
    );
    expect(ran).toEqual(['1']);
    expect(results.map((r) => r.status)).toEqual(['error', 'error']);
    expect(text(results[1]!)).toMatch(/Not run: the run was stopped/);
  });
});
