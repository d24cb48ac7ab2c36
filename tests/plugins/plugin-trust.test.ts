// The plugin runtime's trust rules with real plugin processes: main's event topics are main's alone, and a
// declaration past a cap fails only the plugin that made it.
import { assemblePrompt } from '../../src/main/agent/prompt-assembly.ts';
import { pluginPromptBlocks } from '../../src/main/agent-bridge/index.ts';
import { afterEach, expect, test } from 'vitest';
import { AGENT_DELTA_TOPIC, AGENT_EVENT_TOPIC, PLUGIN_STATE_CHANGED_TOPIC } from '../../src/shared/plugins/core-topics.ts';
import { createHarness, fixture, type Harness } from './plugin-harness.ts';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

test('a plugin emitting on agent.event, agent.delta or plugin.stateChanged is refused and nothing is delivered', async () => {
  h = createHarness([fixture('overreach'), fixture('echo')]);
  await h.service.start();
  expect(h.service.get('overreach').state).toBe('active');
  for (const topic of [AGENT_EVENT_TOPIC, AGENT_DELTA_TOPIC, PLUGIN_STATE_CHANGED_TOPIC]) {
    const forged: unknown[] = [];
    const sub = h.service.events.on(topic, (payload, from) => forged.push({ payload, from }));
    // The plugin emits on the core topic, then on its own; the pipe is ordered, so once main hears the
    // second, it has already dealt with the first.
    const done = h.nextEvent('overreach.done');
    expect(await h.service.registries.tools.execute('spoof', { topic })).toMatchObject({ isError: false });
    expect(await done).toEqual({ topic });
    sub.dispose();
    expect(forged).toEqual([]);
  }
  // Refused, not punished: the plugin stays Active and keeps working; its log says what was refused.
  expect(h.service.get('overreach').state).toBe('active');
  expect(
    h.service
      .logs('overreach')
      .filter((l) => l.level === 'warn')
      .map((l) => l.message),
  ).toEqual([
    "The plugin 'overreach' cannot emit on 'agent.event': only Amber emits on its own topics (agent.*, plugin.*); emit under your plugin's id instead, like 'overreach.event'.",
    "The plugin 'overreach' cannot emit on 'agent.delta': only Amber emits on its own topics (agent.*, plugin.*); emit under your plugin's id instead, like 'overreach.delta'.",
    "The plugin 'overreach' cannot emit on 'plugin.stateChanged': only Amber emits on its own topics (agent.*, plugin.*); emit under your plugin's id instead, like 'overreach.stateChanged'.",
  ]);
});

test("a plugin still hears the agent's events it subscribed to", async () => {
  h = createHarness([fixture('overreach')]);
  await h.service.start();
  const heard = h.nextEvent('overreach.heard');
  h.service.events.emit(AGENT_EVENT_TOPIC, { type: 'turn_start', sessionId: 's1' });
  expect(await heard).toEqual({ type: 'turn_start', sessionId: 's1' });
});

test.each([
  ['long-description', "tool 'spoof'): description: a tool's description is at most 4,096 characters"],
  ['deep-schema', "tool 'spoof'): parameters: a tool's parameter schema is nested at most 32 levels deep"],
  ['long-status', "statusSegment 'loud'): text: a status segment's text is at most 200 characters"],
  ['many-declarations', 'The plugin declares 300 contributions; a plugin may declare at most 256.'],
])('a plugin declaring past a cap (%s) is Failed with the cap named; main and other plugins go on', async (mode, reason) => {
  h = createHarness([fixture('overreach'), fixture('echo')]);
  h.config.set('overreach', { mode });
  await h.service.start();
  const info = h.service.get('overreach');
  expect(info.state).toBe('failed');
  expect(info.reason).toContain(reason);
  expect(info.pid).toBeNull();
  // Nothing it declared before the bad one survives, and the other plugin is untouched.
  expect(h.service.ledger.labels('overreach')).toEqual([]);
  expect(h.service.registries.tools.specs().map((t) => t.name)).toEqual(['echo']);
  expect(h.service.registries.statusSegments.size).toBe(0);
  expect(await h.service.registries.tools.execute('echo', { text: 'still here' })).toMatchObject({ content: [{ text: 'still here' }] });
});

test('a prompt block rendering past its cap is left out of the prompt with the reason; the plugin stays Active', async () => {
  h = createHarness([fixture('overreach')]);
  h.config.set('overreach', { mode: 'long-block' });
  await h.service.start();
  // Through the path the agent uses: the plugins' blocks, assembled into the request's system prompt.
  const workspace = h.dir;
  const assembled = await assemblePrompt({
    systemPrompt: 'base',
    blocks: pluginPromptBlocks(h.service.registries.promptBlocks, () => workspace)(),
    messages: [],
    context: { sessionId: 's', signal: new AbortController().signal },
  });
  expect(assembled.systemPrompt).toBe('base');
  expect(assembled.failures).toEqual([
    { blockId: 'overreach:huge', error: "The prompt block 'huge' rendered 40,000 characters; a block is at most 32,768, so it was left out." },
  ]);
  expect(h.service.get('overreach').state).toBe('active');
});

test('a prompt block naming more sources than a render may is left out with the reason; a block within the caps brings its sources', async () => {
  h = createHarness([fixture('overreach')]);
  h.config.set('overreach', { mode: 'many-sources' });
  await h.service.start();
  const workspace = h.dir;
  const assembled = await assemblePrompt({
    systemPrompt: 'base',
    blocks: pluginPromptBlocks(h.service.registries.promptBlocks, () => workspace)(),
    messages: [],
    context: { sessionId: 's', signal: new AbortController().signal },
  });
  expect(assembled.systemPrompt).toBe('base\n\nsourced');
  expect(assembled.failures).toEqual([
    {
      blockId: 'overreach:crowded',
      error:
        "The prompt block 'crowded' named what it drew on in a shape Amber does not take (at most 20 sources of { id, label }, labels at most 200 characters), so it was left out.",
    },
  ]);
  expect(assembled.sources).toEqual([
    { pluginId: 'overreach', id: 'm0', label: 'memory 0' },
    { pluginId: 'overreach', id: 'm1', label: 'memory 1' },
  ]);
  expect(h.service.get('overreach').state).toBe('active');
});

test('a panel update past a cap is refused: the panel stays as it was, the plugin stays Active, and its log says why', async () => {
  // The executor runs at once, so the harness exists when the next line runs.
  const logged = new Promise<string>((resolve) => {
    h = createHarness([fixture('overreach')], {
      onLog: (id, line) => {
        if (id === 'overreach' && line.level === 'error') resolve(line.message);
      },
    });
  });
  if (!h) throw new Error('no harness');
  h.config.set('overreach', { mode: 'panel' });
  await h.service.start();
  expect(await h.service.registries.tools.execute('grow', {})).toMatchObject({ isError: false });
  expect(await logged).toContain('a panel section has at most 200 rows');
  expect(h.service.registries.panels.list().map((p) => p.sections[0]!.rows.length)).toEqual([1]);
  expect(h.service.get('overreach').state).toBe('active');
});
