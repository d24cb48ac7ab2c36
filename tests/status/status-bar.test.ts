// The status bar through the whole core: createApp builds one status service, whose bar counts the replies on
// the branch, shows no cost until a reply has its usage, and is rebuilt at most once per interval in a fast run.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { AppOptions } from '../../src/main/app.ts';
import { ENTRY_NOTIFY_MS } from '../../src/main/status/index.ts';
import type { ProviderEvent, StreamFn } from '../../src/shared/providers/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let under: AppUnderTest | null = null;
afterEach(async () => {
  await under?.close();
  under = null;
});

/** A core on a temp folder with a workspace folder `ws` beside its data folder (a run's folder is never the data folder). */
function core(options: (dir: string) => Partial<AppOptions> = () => ({})): { app: AppUnderTest['app']; workspace: string } {
  under = openApp({ prefix: 'amber-status-', before: (dir) => mkdirSync(join(dir, 'ws')), app: options });
  return { app: under.app, workspace: join(under.dir, 'ws') };
}

test('the core builds one status service, and its bar counts the tokens of the replies on the branch', () => {
  const { app, workspace } = core();
  const s = app.sessions.create({ title: 'Counted', cwd: workspace });
  app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'user', content: 'hi' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stopReason: 'stop', usage: { input: 1200, output: 30 } } },
  ]);
  const bar = app.status.list(s.id);
  expect(bar.segments.find((seg) => seg.id === 'core.tokens')?.text).toBe('↑ 1.2k ↓ 30');
});

test('before the first reply the bar counts nothing: no tokens, no $0.00; the context shows once there is some', () => {
  const { app, workspace } = core();
  const s = app.sessions.create({ title: 'Fresh', cwd: workspace });
  expect(app.status.list(s.id).segments.map((seg) => seg.id)).toEqual(['core.model']);
  app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: 'a question with some words in it' } });
  const ids = app.status.list(s.id).segments.map((seg) => seg.id);
  expect(ids).toEqual(['core.model', 'core.context']);
  expect(app.status.list(s.id).segments.some((seg) => seg.text === '$0.00')).toBe(false);
});

test('while the first reply streams the bar counts its tokens but shows no cost until the reply has its usage', async () => {
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
  const { app, workspace } = core(() => ({
    defaultModel: { provider: 'fake', modelId: 'm' },
    resolveProvider: () => ({
      stream,
      model: { id: 'm', contextWindow: 100_000, reasoning: false, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
    }),
  }));
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

test('a run that stores entries faster than ENTRY_NOTIFY_MS rebuilds the bar once per interval, not once per entry, and the last one counts every reply', async () => {
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
  const { app, workspace } = core(() => ({
    defaultModel: { provider: 'fake', modelId: 'm' },
    resolveProvider: () => ({
      stream,
      model: { id: 'm', contextWindow: 100_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
    }),
    tools: {
      list: () => [{ name: 'step', description: 'Does one step.', parameters: { type: 'object', properties: { n: { type: 'number' } } }, readOnly: true }],
      execute: async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }),
    },
  }));
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
