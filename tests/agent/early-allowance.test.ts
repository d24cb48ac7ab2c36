import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { ToolSource } from '../../src/main/agent/index.ts';
import type { App } from '../../src/main/app.ts';
import type { ToolOutput, ToolSpec } from '../../src/shared/tools/index.ts';
import { openApp } from '../fixtures/app-under-test.ts';
import { createHarness, type Harness } from './agent-harness.ts';
import { openAiStream, startProviderServer } from '../fixtures/provider-server.ts';
import { calls, MODEL, ScriptedProvider, text } from './scripted-provider.ts';

// The loop tells the provider, as soon as a reply with tool calls is stored, that another call follows,
// so that the call's allowance check runs while the tools do.

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, readOnly: true };
const out = (t: string): ToolOutput => ({ content: [{ type: 'text', text: t }], isError: false });

test('the next call is prepared once a reply with tool calls is stored, before its tools run; not after a reply without them', async () => {
  const order: string[] = [];
  const tools: ToolSource = { list: () => [echo], execute: async (_n, args) => (order.push(`tool ${String(args['text'])}`), out('ok')) };
  // After the run's last reply the silent confirm call hears "done".
  const provider = new ScriptedProvider([
    calls({ name: 'echo', args: { text: 'a' } }),
    calls({ name: 'echo', args: { text: 'b' } }),
    text('Done.'),
    text('done'),
  ]);
  h = createHarness([], {
    tools,
    resolveProvider: (ref) => ({ stream: provider.stream, model: { ...MODEL, id: ref.modelId }, prepare: () => order.push('prepared') }),
    emit: (e) => {
      if (e.type === 'message_end') order.push('reply stored');
    },
  });
  const result = await h.agent.prompt(h.sessionId, 'go');
  expect(result.reason).toBe('stop');
  expect(order).toEqual(['reply stored', 'prepared', 'tool a', 'reply stored', 'prepared', 'tool b', 'reply stored']);
  expect(provider.remaining).toBe(0);
});

test('with the plugins on, a budget used up by a reply blocks the next model call before it reaches the server, though its check ran while the tool did', async () => {
  const server = await startProviderServer();
  const t = openApp({
    prefix: 'amber-early-allowance-',
    before: (dir) => {
      mkdirSync(join(dir, 'home', 'ws'), { recursive: true });
      writeFileSync(join(dir, 'home', 'ws', 'notes.txt'), 'one\ntwo\n');
    },
    app: (dir) => ({ home: join(dir, 'home'), workspace: join(dir, 'home', 'ws'), startPlugins: true }),
  });
  const { app } = t;
  const workspace = join(t.dir, 'home', 'ws');
  try {
    app.providers.save({ presetId: 'custom', baseUrl: `${server.url}/v1`, model: 'fixture-model' });
    const { providers, tools, commands } = app.plugins.registries;
    await until(app, () => providers.get('custom') !== undefined && tools.get('read') !== undefined && commands.get('budget') !== undefined);
    expect((await commands.run(['budget'], ['set', 'session', '100', 'tokens'])).isError).toBe(false);
    server.setScript([
      openAiStream({ text: 'Reading.', toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'notes.txt' } }], usage: { input: 100, output: 20 } }),
      openAiStream({ text: 'Never sent.', usage: { input: 1, output: 1 } }),
    ]);
    const session = app.sessions.create({ title: 'budget', cwd: workspace });
    const model = app.defaultModel();
    const result = await app.agent.prompt(session.id, 'read notes.txt', model ? { model } : {});
    expect(result).toMatchObject({ reason: 'blocked', error: expect.stringContaining('session budget') });
    expect(server.requests).toHaveLength(1);
  } finally {
    await t.close();
    await server.close();
  }
}, 60_000);

/** Resolves once `ready()` holds, checked on every change of the plugins and their registries. */
function until(app: App, ready: () => boolean): Promise<void> {
  const { providers, tools, commands } = app.plugins.registries;
  return new Promise((resolve) => {
    const subs = [providers.onDidChange(check), tools.onDidChange(check), commands.onDidChange(check), app.plugins.onDidChange(check)];
    function check(): void {
      if (!ready()) return;
      for (const s of subs) s.dispose();
      resolve();
    }
    check();
  });
}
