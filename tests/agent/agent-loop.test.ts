import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { AgentService, type ToolSource } from '../../src/main/agent/index.ts';
import { PolicyService } from '../../src/main/policy/index.ts';
import { SettingsService } from '../../src/main/settings/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { ToolOutput, ToolSpec } from '../../src/shared/tools/index.ts';
import { createHarness, textOf, transcript, type Harness } from './agent-harness.ts';
import { MODEL, calls, failure, reply, type Script, stall, text, throwing } from './scripted-provider.ts';

/** A reply preceded by a provider notice (an allowance near its limit). */
const warnedThenFine: Script = async function* (request, signal) {
  yield { type: 'notice', message: 'The daily budget is 80% used.' };
  yield* text('fine')(request, signal);
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const echo: ToolSpec = {
  name: 'echo',
  description: 'Echo text back.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  readOnly: true,
};
const out = (t: string): ToolOutput => ({ content: [{ type: 'text', text: t }], isError: false });
const echoTools: ToolSource = { list: () => [echo], execute: async (_n, args) => out(String(args['text'])) };

describe('the loop', () => {
  test('a prompt and a plain reply: events in order, both persisted', async () => {
    h = createHarness([text('Hello there.')]);
    const result = await h.agent.prompt(h.sessionId, 'hi');
    expect(result).toMatchObject({ reason: 'stop', undelivered: [] });
    expect(h.events.map((e) => e.type)).toEqual([
      'agent_start',
      'entry_appended',
      'turn_start',
      'message_start',
      'message_update',
      'message_update',
      'message_end',
      'turn_end',
      'agent_end',
      'agent_settled',
    ]);
    expect(h.events.every((e) => e.sessionId === h!.sessionId && e.runId === result.runId)).toBe(true);
    expect(transcript(h.pathMessages())).toEqual(['user:hi', 'assistant:Hello there.']);
    expect(h.provider.requests[0]).toMatchObject({ systemPrompt: 'You are a test.', messages: [{ role: 'user', content: 'hi' }] });
    expect(h.agent.isRunning(h.sessionId)).toBe(false);
  });

  test('tool calls run in parallel and their results are appended in call order though they finish out of order', async () => {
    let releaseFirst: (() => void) | undefined;
    const firstMayFinish = new Promise<void>((res) => (releaseFirst = res));
    const tools: ToolSource = {
      list: () => [echo],
      execute: async (_n, args) => {
        if (args['text'] === 'slow')
          await firstMayFinish; // finishes only after the fast one has
        else releaseFirst?.();
        return out(String(args['text']));
      },
    };
    h = createHarness([calls({ name: 'echo', args: { text: 'slow' } }, { name: 'echo', args: { text: 'fast' } }), text('Done.')], { tools });
    const result = await h.agent.prompt(h.sessionId, 'go');
    expect(result.reason).toBe('stop');
    expect(transcript(h.pathMessages())).toEqual(['user:go', 'assistant:[echo,echo]', 'toolResult:echo=slow', 'toolResult:echo=fast', 'assistant:Done.']);
    const ends = h.events.filter((e) => e.type === 'tool_execution_end');
    expect(ends.map((e) => (e.type === 'tool_execution_end' ? textOf(e.entry.type === 'message' ? e.entry.message : undefined) : ''))).toEqual([
      'slow',
      'fast',
    ]);
    expect(h.provider.requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult']);
    expect(h.provider.requests[1]!.tools.map((t) => t.name)).toEqual(['echo']);
  });

  test('a stop for length fails every tool call of that message without running it', async () => {
    let ran = 0;
    const tools: ToolSource = { list: () => [echo], execute: async () => (ran++, out('x')) };
    h = createHarness(
      [
        reply({
          calls: [
            { name: 'echo', args: { text: 'a' } },
            { name: 'echo', args: { text: 'b' } },
          ],
          stopReason: 'length',
        }),
        text('Retrying later.'),
      ],
      { tools },
    );
    await h.agent.prompt(h.sessionId, 'go');
    expect(ran).toBe(0);
    const results = h.pathMessages().filter((m) => m.role === 'toolResult');
    expect(results).toHaveLength(2);
    expect(results.every((r) => r['status'] === 'error' && r['isError'] === true)).toBe(true);
    expect(textOf(results[0])).toMatch(/cut off at the output limit/);
  });

  test('abort mid-stream keeps the partial reply, marked aborted and left out of later context', async () => {
    h = createHarness([stall('Half a thou')]);
    const run = h.agent.start(h.sessionId, 'think hard');
    await h.next('message_update');
    expect(h.agent.abort(h.sessionId)).toBe(true);
    const result = await run.done;
    expect(result.reason).toBe('aborted');
    const last = h.pathMessages().at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
    expect(textOf(last)).toBe('Half a thou');
    expect(h.store.context(h.sessionId).messages.map((m) => m.role)).toEqual(['user']);
    expect(h.events.at(-2)).toMatchObject({ type: 'agent_end', reason: 'aborted' });

    h.provider.push(text('Whole answer.'));
    await h.agent.prompt(h.sessionId, 'again');
    expect(transcript(h.provider.requests[1]!.messages)).toEqual(['user:think hard', 'user:again']);
  });

  test('abort while tools run ends them with error results and keeps the context whole', async () => {
    let started: (() => void) | undefined;
    const toolStarted = new Promise<void>((res) => (started = res));
    const tools: ToolSource = {
      list: () => [echo],
      execute: () => {
        started?.();
        return new Promise<ToolOutput>(() => {});
      },
    };
    h = createHarness([calls({ name: 'echo', args: { text: 'x' } })], { tools });
    const run = h.agent.start(h.sessionId, 'go');
    await toolStarted;
    h.agent.abort(h.sessionId);
    expect((await run.done).reason).toBe('aborted');
    expect(transcript(h.store.context(h.sessionId).messages)).toEqual([
      'user:go',
      'assistant:[echo]',
      expect.stringMatching(/^toolResult:echo=echo was stopped/),
    ]);
  });

  test('a provider error is persisted, ends the run, and is left out of later context', async () => {
    h = createHarness([failure('server', 'The server had a problem (500).')]);
    const result = await h.agent.prompt(h.sessionId, 'hi');
    expect(result).toMatchObject({ reason: 'error', error: 'The server had a problem (500).' });
    expect(h.pathMessages().at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error', errorMessage: 'The server had a problem (500).' });
    expect(h.store.context(h.sessionId).messages).toHaveLength(1);
    h.provider.push(text('ok'));
    await h.agent.prompt(h.sessionId, 'again');
    expect(transcript(h.provider.requests[1]!.messages)).toEqual(['user:hi', 'user:again']);
  });

  test("a provider's notice reaches the user as a notice event and stays out of the reply", async () => {
    h = createHarness([warnedThenFine]);
    await h.agent.prompt(h.sessionId, 'hi');
    expect(h.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'provider_notice', message: 'The daily budget is 80% used.' });
    expect(transcript(h.store.context(h.sessionId).messages)).toEqual(['user:hi', 'assistant:fine']);
  });

  test('a call blocked before it reached the model (an allowance) ends the run as blocked', async () => {
    h = createHarness([failure('blocked', 'The daily budget of $5.00 is spent; raise it in Settings → Budget.')]);
    expect(await h.agent.prompt(h.sessionId, 'hi')).toMatchObject({ reason: 'blocked', error: expect.stringMatching(/budget/) });
    expect(h.store.context(h.sessionId).messages).toHaveLength(1);
  });

  test('a provider that throws instead of reporting is still a persisted error, not a crash', async () => {
    h = createHarness([throwing('socket hang up')]);
    const result = await h.agent.prompt(h.sessionId, 'hi');
    expect(result.reason).toBe('error');
    expect(result.error).toMatch(/socket hang up/);
    expect(h.pathMessages().at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error' });
  });

  test('an unknown model is a persisted error naming it', async () => {
    h = createHarness([]);
    const result = await h.agent.prompt(h.sessionId, 'hi', { model: { provider: 'nowhere', modelId: 'm' } });
    expect(result.error).toMatch(/nowhere\/m is not available/);
    expect(h.store.context(h.sessionId).model).toEqual({ provider: 'nowhere', modelId: 'm' });
  });

  test('steering is delivered after the current tool round, before the next model call', async () => {
    let steered: (() => void) | undefined;
    const steerQueued = new Promise<void>((res) => (steered = res));
    const tools: ToolSource = {
      list: () => [echo],
      execute: async (_n, args) => {
        await steerQueued;
        return out(String(args['text']));
      },
    };
    h = createHarness([calls({ name: 'echo', args: { text: 'a' } }), text('Changed course.')], { tools });
    const run = h.agent.start(h.sessionId, 'go');
    await h.next('tool_execution_start');
    expect(h.agent.steer(h.sessionId, 'use b instead')).toBe(true);
    steered?.();
    await run.done;
    expect(transcript(h.pathMessages())).toEqual(['user:go', 'assistant:[echo]', 'toolResult:echo=a', 'user:use b instead', 'assistant:Changed course.']);
    expect(transcript(h.provider.requests[1]!.messages).at(-1)).toBe('user:use b instead');
    expect(h.agent.steer(h.sessionId, 'too late')).toBe(false);
  });

  test('a follow-up is delivered when the agent would stop, and runs another turn', async () => {
    let streaming: (() => void) | undefined;
    const isStreaming = new Promise<void>((res) => (streaming = res));
    let mayFinish: (() => void) | undefined;
    const finish = new Promise<void>((res) => (mayFinish = res));
    h = createHarness([
      async function* () {
        yield { type: 'start' };
        streaming?.();
        await finish;
        yield* text('First answer.')({} as never, {} as never);
      },
      text('Second answer.'),
    ]);
    const run = h.agent.start(h.sessionId, 'q1');
    await isStreaming;
    expect(h.agent.followUp(h.sessionId, 'q2')).toBe(true);
    mayFinish?.();
    expect((await run.done).reason).toBe('stop');
    expect(transcript(h.pathMessages())).toEqual(['user:q1', 'assistant:First answer.', 'user:q2', 'assistant:Second answer.']);
  });

  test('a run stops at the maximum number of iterations', async () => {
    h = createHarness(
      [1, 2, 3, 4].map((i) => calls({ name: 'echo', args: { text: `step ${i}` } })),
      { tools: echoTools, maxIterations: 3 },
    );
    const result = await h.agent.prompt(h.sessionId, 'loop');
    expect(result.reason).toBe('max_iterations');
    expect(h.provider.requests).toHaveLength(3);
    expect(h.pathMessages().filter((m) => m.role === 'toolResult')).toHaveLength(3);
  });

  test('a call repeated after the user spoke again is a new request, not a duplicate', async () => {
    // Each run is cut after one model call, so the second run starts right after a tool round.
    h = createHarness([calls({ name: 'echo', args: { text: 'a' } }), calls({ name: 'echo', args: { text: 'a' } })], { tools: echoTools, maxIterations: 1 });
    expect((await h.agent.prompt(h.sessionId, 'do it')).reason).toBe('max_iterations');
    await h.agent.prompt(h.sessionId, 'do it again');
    expect(
      h
        .pathMessages()
        .filter((m) => m.role === 'toolResult')
        .map((m) => m['status']),
    ).toEqual(['ok', 'ok']);
  });

  test('after a restart a run resumes from the persisted leaf', async () => {
    h = createHarness([text('First.')]);
    await h.agent.prompt(h.sessionId, 'one');
    await h.agent.dispose();
    h.store.close();
    const reopened = SessionStore.open(join(h.dir, 'amber.db'));
    try {
      const provider = h.provider;
      provider.push(text('Second.'));
      const agent = new AgentService({
        store: reopened,
        resolveProvider: () => ({ stream: provider.stream, model: MODEL }),
        gate: new PolicyService({ settings: new SettingsService({ store: reopened }) }),
      });
      expect((await agent.prompt(h.sessionId, 'two')).reason).toBe('stop');
      expect(transcript(provider.requests[1]!.messages)).toEqual(['user:one', 'assistant:First.', 'user:two']);
      await agent.dispose();
    } finally {
      reopened.close();
    }
  });

  test('messages queued when a run is aborted are handed back undelivered', async () => {
    h = createHarness([stall('...')]);
    const run = h.agent.start(h.sessionId, 'one');
    await h.next('message_update');
    h.agent.steer(h.sessionId, 'steer me');
    h.agent.followUp(h.sessionId, 'then this');
    h.agent.abort(h.sessionId);
    expect(await run.done).toMatchObject({ reason: 'aborted', undelivered: ['steer me', 'then this'] });
    expect(h.pathMessages().filter((m) => m.role === 'user')).toHaveLength(1);
  });

  test('dispose stops every run and waits for it to settle', async () => {
    h = createHarness([stall('...')]);
    const run = h.agent.start(h.sessionId, 'one');
    await h.next('message_update');
    await h.agent.dispose();
    expect(h.events.at(-1)).toMatchObject({ type: 'agent_settled' });
    expect((await run.done).reason).toBe('aborted');
    expect(() => h!.agent.start(h!.sessionId, 'two')).toThrow(/shutting down/);
  });

  test('one run per session at a time', async () => {
    h = createHarness([stall('...')]);
    h.agent.start(h.sessionId, 'one');
    expect(() => h!.agent.start(h!.sessionId, 'two')).toThrow(/A reply is still running in this conversation/);
    h.agent.abort(h.sessionId);
    await h.agent.settled(h.sessionId);
  });

  test('a new run from an earlier leaf (after branch) continues from there', async () => {
    h = createHarness([text('Reply one.'), text('Reply two.'), text('Reply three.')]);
    await h.agent.prompt(h.sessionId, 'one');
    const replyOne = h.path().at(-1)!;
    await h.agent.prompt(h.sessionId, 'two');
    h.store.branch(h.sessionId, replyOne.id);
    await h.agent.prompt(h.sessionId, 'three');
    expect(transcript(h.provider.requests[2]!.messages)).toEqual(['user:one', 'assistant:Reply one.', 'user:three']);
    const branch = h.path();
    expect(branch.find((e) => e.type === 'message' && textOf(e.message) === 'three')!.parentId).toBe(replyOne.id);
    expect(transcript(h.pathMessages())).toEqual(['user:one', 'assistant:Reply one.', 'user:three', 'assistant:Reply three.']);
  });

  test('model and thinking-level changes are entries on the branch and reach the request', async () => {
    h = createHarness([text('a'), text('b')]);
    await h.agent.prompt(h.sessionId, 'hi', { model: { provider: 'fake', modelId: 'fake-2' }, thinkingLevel: 'high' });
    expect(h.path().map((e) => e.type)).toEqual(['model_change', 'model_change', 'thinking_level_change', 'message', 'message']);
    expect(h.provider.requests[0]).toMatchObject({ model: { id: 'fake-2' }, thinkingLevel: 'high' });
    await h.agent.prompt(h.sessionId, 'again', { model: { provider: 'fake', modelId: 'fake-2' } });
    expect(h.path().filter((e) => e.type === 'model_change')).toHaveLength(2);
  });

  test('prompt blocks wrap the conversation and a failing block is reported without breaking the turn', async () => {
    h = createHarness([text('ok')], {
      promptBlocks: () => [
        { id: 'date', position: 'head', priority: 1, render: () => 'Today is a test day.' },
        { id: 'broken', position: 'head', priority: 0, render: () => Promise.reject(new Error('plugin died')) },
        { id: 'todo', position: 'tail', priority: 0, render: () => 'Remember the todo list.' },
      ],
    });
    expect((await h.agent.prompt(h.sessionId, 'hi')).reason).toBe('stop');
    expect(h.provider.requests[0]!.systemPrompt).toBe('You are a test.\n\nToday is a test day.');
    expect(transcript(h.provider.requests[0]!.messages)).toEqual(['user:hi', 'user:Remember the todo list.']);
    expect(h.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'prompt_block_failed', message: expect.stringMatching(/broken.*plugin died/) });
    expect(transcript(h.pathMessages())).toEqual(['user:hi', 'assistant:ok']);
  });

  test("a reply records what its request's blocks drew on, beside its message; a reopened store still has it and later requests never carry it", async () => {
    const memory = { pluginId: 'memory', id: '7', label: 'The user likes short answers' };
    h = createHarness([text('Short.'), text('Again.')], {
      promptBlocks: () => [
        { id: 'memory:recall', position: 'tail', priority: 0, render: () => ({ text: 'Memories: short answers', sources: [memory] }) },
        { id: 'odd', position: 'head', priority: 0, render: () => ({ text: 'odd', sources: 'everything' }) as unknown as string },
      ],
    });
    expect((await h.agent.prompt(h.sessionId, 'hi')).reason).toBe('stop');
    expect(h.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'prompt_block_failed', message: expect.stringContaining('odd') });
    const replyOf = (store: SessionStore) => store.path(h!.sessionId).find((e) => e.type === 'message' && e.message.role === 'assistant');
    expect(replyOf(h.store)).toMatchObject({ sources: [memory] });
    expect(h.path().find((e) => e.type === 'message' && e.message.role === 'user')).not.toHaveProperty('sources');
    expect((await h.agent.prompt(h.sessionId, 'more')).reason).toBe('stop');
    expect(JSON.stringify(h.provider.requests)).not.toContain('The user likes short answers');
    const reopened = SessionStore.open(join(h.dir, 'amber.db'));
    try {
      expect(replyOf(reopened)).toMatchObject({ sources: [memory] });
    } finally {
      reopened.close();
    }
  });

  test("a prompt block declared cache 'run' renders once a run and every request of the run carries it; the next run renders it again", async () => {
    const memory = { pluginId: 'memory', id: '7', label: 'Short answers' };
    let renders = 0;
    h = createHarness(
      [calls({ name: 'echo', args: { text: 'a' } }), calls({ name: 'echo', args: { text: 'b' } }), text('Done.'), text('done'), text('Again.')],
      {
        tools: echoTools,
        promptBlocks: () => [
          { id: 'memory:recall', position: 'tail', priority: 0, cache: 'run', render: () => ({ text: `Memories ${++renders}`, sources: [memory] }) },
        ],
      },
    );
    expect((await h.agent.prompt(h.sessionId, 'go')).reason).toBe('stop');
    const tails = () => h!.provider.requests.map((r) => textOf(r.messages.at(-1)));
    expect(tails().slice(0, 3)).toEqual(['Memories 1', 'Memories 1', 'Memories 1']);
    const replies = h.path().filter((e) => e.type === 'message' && e.message.role === 'assistant');
    expect(replies.map((e) => (e.type === 'message' ? e.sources : undefined))).toEqual([[memory], [memory], [memory]]);
    expect((await h.agent.prompt(h.sessionId, 'more')).reason).toBe('stop');
    expect(tails().at(-1)).toBe('Memories 2');
    expect(renders).toBe(2);
  });

  test('tool execution updates reach the event stream', async () => {
    const tools: ToolSource = {
      list: () => [echo],
      execute: async (_n, args, ctx) => {
        ctx.onUpdate('halfway');
        return out(String(args['text']));
      },
    };
    h = createHarness([calls({ name: 'echo', args: { text: 'a' } }), text('done')], { tools });
    await h.agent.prompt(h.sessionId, 'go');
    const types = h.events.map((e) => e.type).filter((t) => t.startsWith('tool_execution'));
    expect(types).toEqual(['tool_execution_start', 'tool_execution_update', 'tool_execution_end']);
  });
});

describe("the run's context", () => {
  test('a run reads its context from the store once and keeps it across its turns: each request carries everything stored before it', async () => {
    h = createHarness([calls({ name: 'echo', args: { text: 'a' } }), calls({ name: 'echo', args: { text: 'b' } }), text('Both done.'), text('done')], {
      tools: echoTools,
    });
    const store = h.store;
    const build = store.context.bind(store);
    let builds = 0;
    store.context = (...args) => {
      builds++;
      return build(...args);
    };
    expect((await h.agent.prompt(h.sessionId, 'echo twice')).reason).toBe('stop');
    expect(builds).toBe(1);
    expect(h.provider.requests).toHaveLength(4); // three turns and the confirm call
    const stored = h.pathMessages();
    expect(transcript(stored)).toEqual([
      'user:echo twice',
      'assistant:[echo]',
      'toolResult:echo=a',
      'assistant:[echo]',
      'toolResult:echo=b',
      'assistant:Both done.',
    ]);
    expect(h.provider.requests[0]!.messages).toEqual(stored.slice(0, 1));
    expect(h.provider.requests[1]!.messages).toEqual(stored.slice(0, 3));
    expect(h.provider.requests[2]!.messages).toEqual(stored.slice(0, 5));
    expect(h.provider.requests[3]!.messages.slice(0, 6)).toEqual(stored);
  });

  test('an entry another writer appends during a run reaches the next request', async () => {
    let sessionId = '';
    let store: SessionStore | undefined;
    const tools: ToolSource = {
      list: () => [echo],
      execute: async (_n, args) => {
        store!.append(sessionId, { type: 'custom_message', customType: 'elsewhere', content: 'Written by someone else.', display: true });
        return out(String(args['text']));
      },
    };
    h = createHarness([calls({ name: 'echo', args: { text: 'a' } }), text('Seen.'), text('done')], { tools });
    sessionId = h.sessionId;
    store = h.store;
    expect((await h.agent.prompt(h.sessionId, 'go')).reason).toBe('stop');
    expect(transcript(h.provider.requests[1]!.messages)).toEqual(['user:go', 'assistant:[echo]', 'user:Written by someone else.', 'toolResult:echo=a']);
  });
});
