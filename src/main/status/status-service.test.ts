// The status service's pure parts; the bar through the whole core is tested in tests/status/status-bar.test.ts.
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../shared/agent/index.ts';
import { toDisposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import { Entry } from '../../shared/sessions/index.ts';
import { type StatusSources, StatusService, usageTotals } from './status-service.ts';

const reply = (id: string, usage: Record<string, unknown>, role = 'assistant') =>
  Entry.parse({
    id,
    parentId: null,
    timestamp: new Date(0).toISOString(),
    type: 'message',
    message: { role, content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage },
  });

test('usage carried by a message of another role is not counted as a reply', () => {
  const totals = usageTotals(
    [reply('a', { input: 10, output: 5, cost: { total: 0.5 } }), reply('b', { input: 999, output: 999, cost: { total: 9 } }, 'custom')],
    null,
  );
  expect(totals).toEqual({ input: 10, output: 5, cost: 0.5, unpriced: 0, replies: 1 });
});

test("a reply without a cost is priced by its own model when known, so a branch's unknown model does not make a known cost unknown", () => {
  const priced = { id: 'm1', contextWindow: 1000, reasoning: false, pricing: { input: 2, output: 10, cacheRead: 0, cacheWrite: 0 } };
  const own = Entry.parse({
    id: 'r',
    parentId: null,
    timestamp: new Date(0).toISOString(),
    type: 'message',
    message: { role: 'assistant', provider: 'p', model: 'm1', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input: 1e6, output: 1e5 } },
  });
  const infoOf = (provider: string, modelId: string) => (provider === 'p' && modelId === 'm1' ? priced : null);
  expect(usageTotals([own], null, infoOf)).toMatchObject({ cost: 3, unpriced: 0 });
  // Without its own model's prices, and no branch model: unknown, never $0.00.
  expect(usageTotals([own], null)).toMatchObject({ cost: 0, unpriced: 1 });
});

/** An event that never fires. */
const silent: Event<never> = () => toDisposable(() => {});

test('a bar describes each model once, however many of the branch’s replies it wrote', () => {
  const priced = { id: 'm1', contextWindow: 1000, reasoning: false, pricing: { input: 2, output: 10, cacheRead: 0, cacheWrite: 0 } };
  const replies = Array.from({ length: 50 }, (_, i) =>
    Entry.parse({
      id: `r${i}`,
      parentId: i === 0 ? null : `r${i - 1}`,
      timestamp: new Date(0).toISOString(),
      type: 'message',
      message: {
        role: 'assistant',
        provider: 'p',
        model: i % 2 ? 'm1' : 'm2',
        content: [{ type: 'text', text: 'ok' }],
        stopReason: 'stop',
        usage: { input: 1e6, output: 0 },
      },
    }),
  );
  const described: string[] = [];
  const sources = {
    sessions: {
      leaf: () => 'r49',
      context: () => ({ leafId: 'r49', entries: replies, messages: [], model: { provider: 'p', modelId: 'm1' }, thinkingLevel: null }),
    },
    agent: { onDidEmit: silent },
    plugins: { registries: { statusSegments: { onDidChange: silent, list: () => [] }, providers: { onDidChange: silent } } },
    defaultModel: () => null,
    modelInfo: (ref: { provider: string; modelId: string }) => {
      described.push(ref.modelId);
      return ref.modelId === 'm1' ? priced : null;
    },
  } as unknown as StatusSources;
  const status = new StatusService(sources);
  const bar = status.list('s');
  status.dispose();
  expect(described.sort()).toEqual(['m1', 'm2']);
  // 50 replies of a million tokens in at $2 per million: m2 has no prices, so its replies take the branch's model's.
  expect(bar.segments.find((s) => s.id === 'core.cost')?.text).toBe('$100.00');
});

/** A reply of model m under `parentId`, with `input` tokens in and one out. */
const replyUnder = (id: string, parentId: string | null, input: number) =>
  Entry.parse({
    id,
    parentId,
    timestamp: new Date(0).toISOString(),
    type: 'message',
    message: { role: 'assistant', provider: 'p', model: 'm', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input, output: 1 } },
  });
test('the bar follows a run’s appends from its events, and reads the context again only when the leaf moved otherwise', () => {
  const first = replyUnder('a', null, 100);
  let leaf = 'a';
  let reads = 0;
  const emitted = new Emitter<AgentEvent>();
  const sources = {
    sessions: {
      leaf: () => leaf,
      context: () => {
        reads++;
        return { leafId: leaf, entries: [first], messages: [first.message], model: { provider: 'p', modelId: 'm' }, thinkingLevel: null };
      },
    },
    agent: { onDidEmit: emitted.event },
    plugins: { registries: { statusSegments: { onDidChange: silent, list: () => [] }, providers: { onDidChange: silent } } },
    defaultModel: () => null,
    modelInfo: () => null,
  } as unknown as StatusSources;
  const status = new StatusService(sources);
  const tokens = () => status.list('s').segments.find((s) => s.id === 'core.tokens')?.text;
  expect(tokens()).toBe('↑ 100 ↓ 1');
  // The run appends a reply under the leaf and says so: the bar counts it without reading the context again.
  const second = replyUnder('b', 'a', 200);
  leaf = 'b';
  emitted.fire({ type: 'message_end', sessionId: 's', runId: 'r', entry: second });
  expect(tokens()).toBe('↑ 300 ↓ 2');
  expect(reads).toBe(1);
  // The leaf moved with no event of a run (a branch): the context is read again.
  leaf = 'a';
  expect(tokens()).toBe('↑ 100 ↓ 1');
  expect(reads).toBe(2);
  status.dispose();
});

test('a run’s events build no bar while nobody listens to the bar', () => {
  let reads = 0;
  const emitted = new Emitter<AgentEvent>();
  const first = replyUnder('a', null, 100);
  const sources = {
    sessions: {
      leaf: () => 'a',
      context: () => {
        reads++;
        return { leafId: 'a', entries: [first], messages: [first.message], model: null, thinkingLevel: null };
      },
    },
    agent: { onDidEmit: emitted.event },
    plugins: { registries: { statusSegments: { onDidChange: silent, list: () => [] }, providers: { onDidChange: silent } } },
    defaultModel: () => null,
    modelInfo: () => null,
  } as unknown as StatusSources;
  const status = new StatusService(sources);
  emitted.fire({ type: 'agent_settled', sessionId: 's', runId: 'r' });
  expect(reads).toBe(0);
  const bars: unknown[] = [];
  const listening = status.onDidChange((bar) => bars.push(bar));
  // Another conversation's (the first one's next bar waits out the interval between bars).
  emitted.fire({ type: 'entry_appended', sessionId: 't', runId: 'r', entry: first });
  expect([reads, bars.length]).toEqual([1, 1]);
  listening.dispose();
  status.dispose();
});
