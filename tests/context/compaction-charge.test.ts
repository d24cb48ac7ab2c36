// The requests of a compaction (classify and extract, or the summary pass) are charged like a reply: their usage
// and model are kept on the compaction entry, the status bar counts them, and the window and plugins (the budget)
// are told of the entry.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent/index.ts';
import type { ProviderEvent, ProviderRequest, StreamFn } from '../../src/shared/providers/index.ts';
import type { EntryInput } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let under: AppUnderTest | null = null;
afterEach(async () => {
  await under?.close();
  under = null;
});

const cost = (total: number) => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total });

/** Layer 2's answers: every message is context, and a summary with nothing in it. */
function layeredAnswer(request: ProviderRequest): string | null {
  if (request.responseSchema?.name === 'classify_messages') return JSON.stringify({ items: [] });
  if (request.responseSchema?.name === 'extract_summary') {
    return JSON.stringify({
      summary: { goal: 'answer three questions', decisions: [], files: [], openErrors: [], nextStep: 'none' },
      memories: [],
      skills: [],
    });
  }
  return null;
}

test('/compact keeps its requests’ usage on the compaction entry, the status bar counts it, and listeners are told', async () => {
  const summaries: ProviderRequest[] = [];
  const stream: StreamFn = async function* (request): AsyncGenerator<ProviderEvent> {
    summaries.push(request);
    const classify = request.responseSchema?.name === 'classify_messages';
    yield {
      type: 'done',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: layeredAnswer(request) ?? 'unexpected' }],
        stopReason: 'stop',
        model: 'm',
        usage: classify
          ? { input: 2000, output: 100, cacheRead: 0, cacheWrite: 0, cost: cost(0.1) }
          : { input: 3000, output: 100, cacheRead: 0, cacheWrite: 0, cost: cost(0.15) },
      },
    };
  };
  under = openApp({
    prefix: 'amber-compaction-charge-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: () => ({
      defaultModel: { provider: 'fake', modelId: 'm' },
      resolveProvider: () => ({
        stream,
        model: { id: 'm', contextWindow: 3000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      }),
    }),
  });
  const { app } = under;
  const s = app.sessions.create({ title: 'Charged', cwd: join(under.dir, 'ws') });
  const history: EntryInput[] = [];
  for (let i = 1; i <= 3; i++) {
    history.push({ type: 'message', message: { role: 'user', content: `question ${i} `.padEnd(400, 'q') } });
    history.push({
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: `answer ${i} `.padEnd(400, 'a') }],
        stopReason: 'stop',
        usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, cost: cost(0.1) },
      },
    });
  }
  app.sessions.appendMany(s.id, history);
  const told: AgentEvent[] = [];
  app.agent.onDidEmit((e) => told.push(e));

  const outcome = await app.agent.compact(s.id);
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  expect(summaries.map((r) => r.responseSchema?.name)).toEqual(['classify_messages', 'extract_summary']);
  // The classify and extract requests, added up.
  expect(outcome.entry).toMatchObject({ type: 'compaction', provider: 'fake', model: 'm', usage: { input: 5000, output: 200, cost: { total: 0.25 } } });
  expect(app.sessions.entry(s.id, outcome.entry.id)).toMatchObject({ usage: { input: 5000, output: 200 } });
  expect(told).toContainEqual(expect.objectContaining({ type: 'entry_appended', sessionId: s.id, entry: expect.objectContaining({ id: outcome.entry.id }) }));

  // The branch's context now starts at the compaction and keeps the last answer: both are counted.
  const segments = app.status.list(s.id).segments;
  expect(segments.find((seg) => seg.id === 'core.tokens')?.text).toBe('↑ 6.0k ↓ 300');
  expect(segments.find((seg) => seg.id === 'core.cost')?.text).toBe('$0.35');
});

/** A model that answers layer 2's requests and a turn, each with its own usage. */
const summaryOrTurn: StreamFn = async function* (request): AsyncGenerator<ProviderEvent> {
  const answer = layeredAnswer(request);
  const classify = request.responseSchema?.name === 'classify_messages';
  yield {
    type: 'done',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: answer ?? 'Fresh answer.' }],
      stopReason: 'stop',
      model: 'm',
      usage:
        answer === null
          ? { input: 300, output: 5, cacheRead: 0, cacheWrite: 0 }
          : classify
            ? { input: 300, output: 20, cacheRead: 0, cacheWrite: 0, cost: cost(0.03) }
            : { input: 400, output: 20, cacheRead: 0, cacheWrite: 0, cost: cost(0.04) },
    },
  };
};

test('a compaction inside a run keeps its requests’ usage and the provider that served them', async () => {
  under = openApp({
    prefix: 'amber-compaction-charge-',
    before: (dir) => mkdirSync(join(dir, 'ws')),
    app: () => ({
      defaultModel: { provider: 'fake', modelId: 'm' },
      resolveProvider: () => ({
        stream: summaryOrTurn,
        model: { id: 'm', contextWindow: 1000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      }),
    }),
  });
  const { app } = under;
  const s = app.sessions.create({ title: 'Run', cwd: join(under.dir, 'ws') });
  for (let i = 1; i <= 3; i++) {
    app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: `question ${i} `.padEnd(400, 'q') } });
    app.sessions.append(s.id, {
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i} `.padEnd(400, 'a') }], stopReason: 'stop' },
    });
  }
  const result = await app.agent.prompt(s.id, 'next question');
  expect(result.reason).toBe('stop');
  const compaction = app.sessions.path(s.id).find((e) => e.type === 'compaction');
  expect(compaction).toMatchObject({ provider: 'fake', model: 'm', usage: { input: 700, output: 40, cost: { total: 0.07 } } });
});
