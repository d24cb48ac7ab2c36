import { mkdirSync, writeFileSync } from 'node:fs';
import { assemblePrompt } from '../../src/main/agent/prompt-assembly.ts';
import { pluginPromptBlocks } from '../../src/main/agent-bridge/index.ts';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { ModelInfo, ProviderEvent } from '../../src/shared/providers/provider-stream.ts';
import { createHarness, example, fixture, type Harness, isAlive } from './plugin-harness.ts';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const model: ModelInfo = { id: 'echo-1', contextWindow: 8192, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

function countsOf(harness: Harness): Record<string, number> {
  const r = harness.service.registries;
  return {
    tools: r.tools.size,
    promptBlocks: r.promptBlocks.size,
    statusSegments: r.statusSegments.size,
    panels: r.panels.size,
    providers: r.providers.size,
    wallets: r.wallets.size,
    allowances: r.allowances.size,
    commands: r.commands.size,
    hooks: r.hooks.size,
  };
}
/** The example plugin: one contribution of each kind, and a hook at each of the five points. */
const oneOfEach = { tools: 1, promptBlocks: 1, statusSegments: 1, panels: 1, providers: 1, wallets: 1, allowances: 1, commands: 1, hooks: 5 };
const none = { tools: 0, promptBlocks: 0, statusSegments: 0, panels: 0, providers: 0, wallets: 0, allowances: 0, commands: 0, hooks: 0 };

test('the example plugin runs in its own process and serves one contribution of each kind', async () => {
  h = createHarness([example()]);
  await h.service.start();
  const info = h.service.get('example');
  expect(info.state).toBe('active');
  expect(info.pid).not.toBe(process.pid);
  expect(isAlive(info.pid!)).toBe(true);
  expect(countsOf(h)).toEqual(oneOfEach);
  const r = h.service.registries;

  expect(await r.tools.execute('example_greet', { name: 'Ann' })).toEqual({ content: [{ type: 'text', text: 'Hello, Ann!' }], isError: false });
  expect(r.statusSegments.list()[0]).toMatchObject({ id: 'example.greetings', text: 'greeted 1×', pluginId: 'example' });

  // Through the path the agent uses: the block lands after the system prompt, with the session's workspace.
  const assembled = await assemblePrompt({
    systemPrompt: 'base',
    blocks: pluginPromptBlocks(r.promptBlocks, () => '/ws')(),
    messages: [],
    context: { sessionId: 's', signal: new AbortController().signal },
  });
  expect(assembled.systemPrompt).toBe('base\n\nThe workspace is /ws.');
  expect(assembled.failures).toEqual([]);

  const events: ProviderEvent[] = [];
  const stream = r.providers.stream('example-echo')!;
  for await (const e of stream({ model, systemPrompt: '', messages: [{ role: 'user', content: 'hi there' }], tools: [] }, new AbortController().signal))
    events.push(e);
  expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'text_delta', 'text_delta', 'done']);
  expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'echo: hi there' }], stopReason: 'stop' } });

  expect(await r.allowances.check({ providerId: 'example-echo', modelId: 'echo-1' })).toEqual({ allowed: true });
  expect(r.allowances.list()[0]).toMatchObject({ id: 'example.allowance', spent: 1 });
  expect(await r.wallets.refresh('example.wallet')).toMatchObject({ balance: 9.99, currency: 'USD' });
  expect(await r.commands.run(['example', 'hello'], ['there'])).toEqual({ output: 'hello there', isError: false });

  const panelChanged = new Promise<void>((resolve) => {
    const sub = r.panels.onDidChange(() => {
      sub.dispose();
      resolve();
    });
  });
  await r.panels.action('example.panel', 'reset');
  await panelChanged;
  expect(r.panels.list()[0]!.sections[0]!.rows[0]).toEqual({ type: 'keyValue', key: 'Greetings', value: '0' });
});

test('disable removes every contribution of every kind, hooks included, its subscriptions and its process', async () => {
  h = createHarness([example(), fixture('faulty')]);
  await h.service.start();
  expect(countsOf(h)).toEqual({ ...oneOfEach, tools: 1 + 7, providers: 2 });
  const examplePid = h.service.get('example').pid!;
  const faultyPid = h.service.get('faulty').pid!;
  expect(h.service.events.listenerCount('test.ping')).toBe(1);

  const off = await h.service.setState('example', false);
  expect(off).toMatchObject({ state: 'deactivated', enabled: false, contributions: [], pid: null });
  expect(countsOf(h)).toEqual({ ...none, tools: 7, providers: 1 });
  expect(h.service.ledger.size('example')).toBe(0);
  expect(isAlive(examplePid)).toBe(false);

  await h.service.setState('faulty', false);
  expect(countsOf(h)).toEqual(none);
  expect(h.service.ledger.size('faulty')).toBe(0);
  expect(h.service.events.listenerCount('test.ping')).toBe(0);
  expect(isAlive(faultyPid)).toBe(false);

  // Live and persisted: on again without a restart, and the store remembers both switches.
  await h.service.setState('example', true);
  expect(countsOf(h)).toEqual(oneOfEach);
  expect(h.store.pluginStates()).toEqual(
    new Map([
      ['example', true],
      ['faulty', false],
    ]),
  );
});

test('a crash unwinds every contribution of every kind, hooks included', async () => {
  h = createHarness([example()], { restartBackoffMs: 60_000 });
  await h.service.start();
  expect(countsOf(h)).toEqual(oneOfEach);
  process.kill(h.service.get('example').pid!, 'SIGKILL');
  const failed = await h.until('example', (i) => i.state === 'failed');
  expect(failed.reason).toMatch(/killed \(SIGKILL\)/);
  expect(countsOf(h)).toEqual(none);
  expect(h.service.ledger.size('example')).toBe(0);
});

test('a plugin reads the config the host attached after the runtime started, at the moment of use', async () => {
  h = createHarness([example()]);
  await h.service.start();
  const r = h.service.registries;
  expect((await r.tools.execute('example_greet', { name: 'Bo' })).content[0]!.text).toBe('Hello, Bo!');
  h.config.set('example', { greeting: 'Ahoy' });
  expect((await r.tools.execute('example_greet', { name: 'Bo' })).content[0]!.text).toBe('Ahoy, Bo!');
});

test('on/off state persists: a new runtime on the same data activates what was on', async () => {
  h = createHarness([example({ enabledByDefault: false })]);
  await h.service.start();
  expect(h.service.get('example').state).toBe('registered');
  await h.service.setState('example', true);
  const { store } = h;
  await h.service.dispose();
  const { PluginService } = await import('../../src/main/plugins/index.ts');
  const again = new PluginService({ store, dataDir: h.dir, plugins: [example({ enabledByDefault: false })], launcher: undefined });
  try {
    await again.start();
    expect(again.get('example').state).toBe('active');
  } finally {
    await again.dispose();
  }
});

test('events flow both ways: main to a subscribed plugin and back', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  const pong = h.nextEvent('faulty.pong');
  h.service.events.emit('test.ping', { n: 1 });
  expect(await pong).toEqual({ n: 1 });
  expect(JSON.parse((await h.service.registries.tools.execute('received', {})).content[0]!.text)).toEqual([{ n: 1 }]);
});

test('a declined contribution is listed, installs nothing, and the plugin stays Active', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  const info = h.service.get('faulty');
  expect(info.state).toBe('active');
  expect(info.contributions[0]).toEqual({ kind: 'tool', key: 'gated', status: 'declined', reason: 'withGatedTool is off' });
  expect(h.service.registries.tools.get('gated')).toBeUndefined();
});

test('initialize returning false, or throwing, fails the plugin with nothing installed', async () => {
  h = createHarness([fixture('faulty', { id: 'says_no' }), fixture('faulty', { id: 'throws' })]);
  h.config.set('says_no', { mode: 'initialize-false' });
  h.config.set('throws', { mode: 'throw-initialize' });
  await h.service.start();
  expect(h.service.get('says_no')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/initialize\(\) returned false/), pid: null });
  expect(h.service.get('throws')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/initialize\(\) threw: the fixture was told to fail/) });
  expect(countsOf(h)).toEqual(none);
});

test('a protocol mismatch or a handshake answering ok:false makes the plugin Incompatible with the reason', async () => {
  h = createHarness([fixture('faulty', { id: 'future', protocolVersion: 99 }), fixture('not_sdk')]);
  await h.service.start();
  expect(h.service.get('future')).toMatchObject({ state: 'incompatible', reason: expect.stringMatching(/protocol 99/) });
  expect(h.service.get('not_sdk')).toMatchObject({
    state: 'incompatible',
    reason: expect.stringMatching(/does not default-export a plugin built with definePlugin/),
  });
  expect(countsOf(h)).toEqual(none);
});

test('a user plugin is discovered from <data dir>/plugins/<id>/ with a built JS entry and starts off', async () => {
  h = createHarness([]);
  await h.service.dispose();
  const dir = join(h.dir, 'plugins', 'userdemo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ id: 'userdemo', version: '0.1.0', name: 'User demo', category: 'weird-stuff', protocolVersion: 1, entry: 'index.js' }),
  );
  writeFileSync(
    join(dir, 'index.js'),
    `export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() {
      return [{ kind: 'command', path: ['demo'], help: 'demo', run: (args) => 'demo ' + args.join(',') }];
    } };\n`,
  );
  const broken = join(h.dir, 'plugins', 'broken');
  mkdirSync(broken);
  writeFileSync(join(broken, 'manifest.json'), JSON.stringify({ id: 'broken', version: 'one', name: 'B', protocolVersion: 1, entry: 'index.js' }));

  const { PluginService, createForkLauncher } = await import('../../src/main/plugins/index.ts');
  const service = new PluginService({ store: h.store, dataDir: h.dir, launcher: createForkLauncher({ execArgv: [] }) });
  try {
    await service.start();
    const user = service.get('userdemo');
    expect(user).toMatchObject({ source: 'user', state: 'registered', enabled: false, category: 'weird-stuff' });
    expect(service.problems).toEqual([{ dir: broken, reason: expect.stringMatching(/version: a version is semver/) }]);
    await service.setState('userdemo', true, { confirm: true });
    expect(await service.registries.commands.run(['demo'], ['a', 'b'])).toEqual({ output: 'demo a,b', isError: false });
  } finally {
    await service.dispose();
  }
});

test("tick runs in the plugin on main's clock and its panel updates reach the registry", async () => {
  h = createHarness([example()], { tickIntervalMs: 20 });
  await h.service.start();
  const panels = h.service.registries.panels;
  const ticks = () => {
    const row = panels.list()[0]?.sections[0]?.rows.find((r) => r.type === 'keyValue' && r.key === 'Ticks');
    return row?.type === 'keyValue' ? Number(row.value) : 0;
  };
  await new Promise<void>((resolve) => {
    const sub = panels.onDidChange(() => {
      if (ticks() >= 2) {
        sub.dispose();
        resolve();
      }
    });
  });
  expect(ticks()).toBeGreaterThanOrEqual(2);
  await h.service.setState('example', false);
  expect(h.service.ledger.labels('example')).toEqual([]);
});

test('a launcher that cannot start a process fails the plugin with the reason', async () => {
  h = createHarness([example()]);
  await h.service.dispose();
  const { PluginService } = await import('../../src/main/plugins/index.ts');
  const service = new PluginService({
    store: h.store,
    dataDir: h.dir,
    plugins: [example()],
    launcher: () => {
      throw new Error('spawn EAGAIN');
    },
  });
  await service.start();
  expect(service.get('example')).toMatchObject({ state: 'failed', reason: "The plugin's process could not be started: spawn EAGAIN" });
  await service.dispose();
});

test('subscribing and unsubscribing again and again keeps one ledger entry per topic, and disable removes it', async () => {
  h = createHarness([fixture('faulty')]);
  await h.service.start();
  const before = h.service.ledger.size('faulty');
  for (let i = 0; i < 3; i++) {
    expect((await h.service.registries.tools.execute('resubscribe', {})).isError).toBe(false);
  }
  expect(h.service.ledger.size('faulty')).toBe(before + 1);
  expect(h.service.events.listenerCount('test.again')).toBe(1);
  await h.service.setState('faulty', false);
  expect(h.service.events.listenerCount('test.again')).toBe(0);
});
