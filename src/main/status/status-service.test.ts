import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Entry } from '../../shared/sessions/index.ts';
import { type App, createApp } from '../app.ts';
import { ENTRY_NOTIFY_MS, usageTotals } from './status-service.ts';
import type { ProviderEvent, StreamFn } from '../../shared/providers/index.ts';

let dir: string;
let app: App;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-status-'));
  app = createApp({ dataDir: dir, startPlugins: false });
});

afterEach(async () => {
  await app.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const reply = (id: string, usage: Record<string, unknown>, role = 'assistant') =>
  Entry.parse({
    id,
    parentId: null,
    timestamp: new Date(0).toISOString(),
    type: 'message',
    message: { role, content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage },
  });

test('the core builds one status service, and its bar counts the tokens of the replies on the branch', () => {
  const s = app.sessions.create({ title: 'Counted', cwd: dir });
  app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'user', content: 'hi' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stopReason: 'stop', usage: { input: 1200, output: 30 } } },
  ]);
  const bar = app.status.list(s.id);
  expect(bar.segments.find((seg) => seg.id === 'core.tokens')?.text).toBe('↑ 1.2k ↓ 30');
});

test('before the first reply the bar counts nothing: no tokens, no $0.00; the context shows once there is some', () => {
  const s = app.sessions.create({ title: 'Fresh', cwd: dir });
  expect(app.status.list(s.id).segments.map((seg) => seg.id)).toEqual(['core.model']);
  app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: 'a question with some words in it' } });
  const ids = app.status.list(s.id).segments.map((seg) => seg.id);
  expect(ids).toEqual(['core.model', 'core.context']);
  expect(app.status.list(s.id).segments.some((seg) => seg.text === '$0.00')).toBe(false);
});

test('while the first reply streams the bar counts its tokens but shows no cost until the reply has its usage', async () => {
  await app.dispose();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const stream: StreamFn = async function* (): AsyncGenerator<ProviderEvent> {
    yield { type: 'text_delta', delta: 'a first reply streaming in' };
    await held;
    yield {
      type: 'done',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'a first reply streaming in' }],
        stopReason: 'stop',
        usage: { input: 10, output: 6, cacheRead: 0, cacheWrite: 0 },
      },
    };
  };
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  app = createApp({
    dataDir: join(dir, 'data'),
    startPlugins: false,
    defaultModel: { provider: 'fake', modelId: 'm' },
    resolveProvider: () => ({
      stream,
      model: { id: 'm', contextWindow: 100_000, reasoning: false, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
    }),
  });
  const s = app.sessions.create({ title: 'Streaming', cwd: workspace });
  const streamed = new Promise<void>((resolve) => app.agent.onDidEmit((e) => e.type === 'message_update' && resolve()));
  const run = app.agent.prompt(s.id, 'go');
  await streamed;
  const ids = app.status.list(s.id).segments.map((seg) => seg.id);
  expect(ids).toContain('core.tokens');
  expect(ids).not.toContain('core.cost');
  release();
  await run;
  expect(app.status.list(s.id).segments.map((seg) => seg.id)).toContain('core.cost');
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

test('a run that stores entries faster than ENTRY_NOTIFY_MS rebuilds the bar once per interval, not once per entry, and the last one counts every reply', async () => {
  await app.dispose();
  const turns = 20;
  let served = 0;
  const stream: StreamFn = async function* (): AsyncGenerator<ProviderEvent> {
    const n = ++served;
    const content = n <= turns ? [{ type: 'toolCall' as const, id: `call_${n}`, name: 'step', arguments: { n } }] : [{ type: 'text' as const, text: 'done' }];
    yield {
      type: 'done',
      message: { role: 'assistant', content, stopReason: n <= turns ? 'toolUse' : 'stop', usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 } },
    };
  };
  // The workspace may not be the data folder: the run's folder is one beside it.
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  app = createApp({
    dataDir: join(dir, 'data'),
    startPlugins: false,
    defaultModel: { provider: 'fake', modelId: 'm' },
    resolveProvider: () => ({
      stream,
      model: { id: 'm', contextWindow: 100_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
    }),
    tools: {
      list: () => [{ name: 'step', description: 'Does one step.', parameters: { type: 'object', properties: { n: { type: 'number' } } }, readOnly: true }],
      execute: async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }),
    },
  });
  const s = app.sessions.create({ title: 'Fast', cwd: workspace });
  const views: string[] = [];
  app.status.onDidChange((view) => {
    if (view.sessionId === s.id) views.push(view.segments.find((seg) => seg.id === 'core.tokens')!.text);
  });
  const started = performance.now();
  const result = await app.agent.prompt(s.id, 'go');
  const ms = performance.now() - started;
  expect(result.reason).toBe('stop');
  // Every reply (20 tool turns, the answer and the confirm call) and result was stored: over 40 entries.
  const replies = turns + 2;
  const last = `↑ ${10 * (replies - 1)} ↓ ${replies - 1}`;
  if (views.at(-1) !== last) await new Promise<void>((resolve) => app.status.onDidChange((view) => view.sessionId === s.id && resolve()));
  expect(app.status.list(s.id).segments.find((seg) => seg.id === 'core.tokens')!.text).toBe(last);
  expect(views.length).toBeLessThanOrEqual(Math.ceil(ms / ENTRY_NOTIFY_MS) + 3);
  expect(views.length).toBeLessThan(2 * turns);
});
