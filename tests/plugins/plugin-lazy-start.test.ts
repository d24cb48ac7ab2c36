import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { discoverPlugins, type PluginProcess, type PluginServiceOptions } from '../../src/main/plugins/index.ts';
import type { PluginDescriptor } from '../../src/main/plugins/index.ts';
import { createHarness, descriptor, fixture, type Harness, isAlive } from './plugin-harness.ts';

let current: Harness | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

/** A harness that records every process it starts, in order. */
function lazyHarness(plugins: PluginDescriptor[] = [fixture('lazy')], options: Partial<PluginServiceOptions> = {}) {
  const launched: PluginProcess[] = [];
  const h = createHarness(plugins, options, { onLaunch: (id, proc) => id === 'lazy' && launched.push(proc) });
  current = h;
  return { h, launched };
}

const text = (out: { content: { text: string }[] }) => out.content.map((c) => c.text).join('');
const toolNames = (harness: Harness) => harness.service.registries.tools.specs().map((s) => s.name);
const exited = (proc: PluginProcess) => new Promise<void>((resolve) => proc.onExit(() => resolve()));

test('a lazy plugin holds no process until its tool is called, yet the model is offered its tool; the first call starts it and returns the result', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  const idle = h.service.get('lazy');
  expect(idle).toMatchObject({ state: 'idle', enabled: true, pid: null, reason: null });
  expect(launched).toHaveLength(0);
  expect(toolNames(h)).toEqual(['lazy_peek', 'lazy_extra']);
  expect(h.service.registries.tools.get('lazy_peek')!.value.spec).toMatchObject({ readOnly: true, parameters: { properties: { text: { type: 'string' } } } });
  expect(h.service.registries.statusSegments.list().map((s) => s.text)).toEqual(['lazy: not started']);
  expect(h.service.registries.panels.list().map((p) => p.id)).toEqual(['lazy.panel']);
  expect(idle.contributions).toEqual([
    { kind: 'tool', key: 'lazy_peek', status: 'installed', static: true },
    { kind: 'tool', key: 'lazy_extra', status: 'installed', static: true },
    { kind: 'command', key: 'lazy hello', status: 'installed', static: true },
    { kind: 'panel', key: 'lazy.panel', status: 'installed', static: true },
    { kind: 'statusSegment', key: 'lazy.status', status: 'installed', static: true },
  ]);
  expect(idle.declares).toEqual(['tool', 'statusSegment', 'panel', 'command']);
  expect(h.service.ledger.labels('lazy')).toEqual([
    'static',
    'static:tool:lazy_peek',
    'static:tool:lazy_extra',
    'static:command:lazy hello',
    'static:panel:lazy.panel',
    'static:statusSegment:lazy.status',
    'activation:lazy.poke',
  ]);

  const out = await h.service.registries.tools.execute('lazy_peek', { text: 'hi' });
  expect(launched).toHaveLength(1);
  const running = h.service.get('lazy');
  expect(running.state).toBe('active');
  expect(running.pid).toBe(launched[0]!.pid);
  expect(isAlive(running.pid!)).toBe(true);
  expect(out).toMatchObject({ isError: false });
  expect(text(out)).toBe(`hi from ${running.pid}`);
  // What it declares at run time replaced the manifest's: its own status text, and a tool only it declares.
  expect(toolNames(h)).toEqual(['lazy_peek', 'lazy_extra', 'lazy_wait', 'lazy_crash']);
  expect(h.service.registries.statusSegments.list().map((s) => s.text)).toEqual(['lazy: running']);
  expect(running.contributions.some((c) => c.static)).toBe(false);
  expect(h.service.ledger.labels('lazy')).not.toContain('static:tool:lazy_peek');
  expect(h.service.ledger.labels('lazy')).toContain('tool:lazy_peek');
});

test('a statically declared tool is in the registry whenever another task looks, also while the plugin replaces it with its own', async () => {
  const { h } = lazyHarness();
  await h.service.start();
  const seen: boolean[] = [];
  h.service.registries.tools.onDidChange(() => queueMicrotask(() => seen.push(h.service.registries.tools.get('lazy_peek') !== undefined)));
  expect(text(await h.service.registries.tools.execute('lazy_peek', { text: 'x' }))).toMatch(/^x from \d+$/);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every(Boolean)).toBe(true);
  expect(h.service.registries.tools.get('lazy_peek')!.pluginId).toBe('lazy');
});

test('two concurrent first calls start one process and both get their answer from it', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  const [a, b, c] = await Promise.all([
    h.service.registries.tools.execute('lazy_peek', { text: 'a' }),
    h.service.registries.tools.execute('lazy_peek', { text: 'b' }),
    h.service.registries.commands.run(['lazy', 'hello'], ['c']),
  ]);
  expect(launched).toHaveLength(1);
  const pid = h.service.get('lazy').pid;
  expect([text(a), text(b), c.output]).toEqual([`a from ${pid}`, `b from ${pid}`, `hello c from ${pid}`]);
});

test('its command is listed for completion before it starts, and running it starts the plugin', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  expect(h.service.registries.commands.list()).toEqual([{ path: ['lazy', 'hello'], help: 'Says hello from the lazy plugin.', pluginId: 'lazy' }]);
  expect(launched).toHaveLength(0);
  const result = await h.service.registries.commands.run(['lazy', 'hello'], ['there']);
  expect(result).toEqual({ output: `hello there from ${h.service.get('lazy').pid}`, isError: false });
  expect(launched).toHaveLength(1);
});

test('an action on its panel starts it and reaches the plugin', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  const updated = new Promise<void>((resolve) =>
    h.service.registries.panels.onDidChange(() => h.service.registries.panels.get('lazy.panel')?.value.view.title === 'Lazy (poked)' && resolve()),
  );
  await h.service.registries.panels.action('lazy.panel', 'poke');
  await updated;
  expect(launched).toHaveLength(1);
});

test('opening its panel starts a plugin that lists onPanel for it; a panel of a plugin without it, or no panel, starts nothing', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  expect(await h.service.panelOpened('no.such.panel')).toBe(false);
  expect(launched).toHaveLength(0);
  expect(await h.service.panelOpened('lazy.panel')).toBe(true);
  expect(launched).toHaveLength(1);
  expect(h.service.get('lazy').state).toBe('active');
  // Running already: nothing more is started.
  expect(await h.service.panelOpened('lazy.panel')).toBe(true);
  expect(launched).toHaveLength(1);
});

test('opening the panel of a lazy plugin that does not list onPanel leaves it idle', async () => {
  const { h, launched } = lazyHarness([fixture('lazy', { activationEvents: ['onTool'] })]);
  await h.service.start();
  expect(h.service.get('lazy').state).toBe('idle');
  expect(await h.service.panelOpened('lazy.panel')).toBe(false);
  expect(launched).toHaveLength(0);
  expect(h.service.get('lazy').state).toBe('idle');
});

test('an event on its onEvent topic starts it, and the event that started it is delivered', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  const heard = h.nextEvent('lazy.heard');
  h.service.events.emit('lazy.poke', { n: 7 });
  expect(await heard).toEqual({ n: 7, pokes: 1 });
  expect(launched).toHaveLength(1);
  expect(h.service.get('lazy').state).toBe('active');
  // Running, it hears the topic through its own subscription, once.
  const next = h.nextEvent('lazy.heard');
  h.service.events.emit('lazy.poke', { n: 8 });
  expect(await next).toEqual({ n: 8, pokes: 2 });
});

test('switching it off while not started removes its static declarations, and on again brings them back without a process', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  const off = await h.service.setState('lazy', false);
  expect(off).toMatchObject({ state: 'deactivated', contributions: [], pid: null });
  expect(toolNames(h)).toEqual([]);
  expect(h.service.registries.commands.size + h.service.registries.panels.size + h.service.registries.statusSegments.size).toBe(0);
  expect(h.service.ledger.size('lazy')).toBe(0);
  h.service.events.emit('lazy.poke', { n: 1 });
  expect((await h.service.setState('lazy', true)).state).toBe('idle');
  expect(toolNames(h)).toEqual(['lazy_peek', 'lazy_extra']);
  expect(launched).toHaveLength(0);
});

test('switching it off after start ends its process and removes everything, static declarations included', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  await h.service.registries.tools.execute('lazy_peek', { text: 'x' });
  const pid = h.service.get('lazy').pid!;
  const gone = exited(launched[0]!);
  await h.service.setState('lazy', false);
  await gone;
  expect(isAlive(pid)).toBe(false);
  expect(toolNames(h)).toEqual([]);
  expect(h.service.registries.statusSegments.size + h.service.registries.commands.size + h.service.registries.panels.size).toBe(0);
  expect(h.service.ledger.size('lazy')).toBe(0);
  const late = await h.service.registries.tools.execute('lazy_peek', {});
  expect(late.isError).toBe(true);
});

test('a crash after start follows the faults table: Failed with a restart after the backoff, which makes it not started again; at the crash limit it stays off', async () => {
  const { h, launched } = lazyHarness([fixture('lazy')], { restartBackoffMs: 100, crashLimit: 2 });
  await h.service.start();
  await h.service.registries.tools.execute('lazy_peek', { text: 'x' });
  const failed = h.until('lazy', (i) => i.state === 'failed');
  const crash = await h.service.registries.tools.execute('lazy_crash', {});
  expect(crash.isError).toBe(true);
  expect(text(crash)).toMatch(/The plugin 'lazy' stopped: its process was killed \(SIGKILL\)/);
  const info = await failed;
  expect(info.reason).toMatch(/killed \(SIGKILL\)\. Restarting in 100 ms/);
  expect(toolNames(h)).toEqual([]);
  expect(h.service.ledger.size('lazy')).toBe(0);

  const back = await h.until('lazy', (i) => i.state === 'idle');
  expect(back).toMatchObject({ pid: null, recentCrashes: 1 });
  expect(toolNames(h)).toEqual(['lazy_peek', 'lazy_extra']);
  expect(launched).toHaveLength(1);

  await h.service.registries.tools.execute('lazy_peek', { text: 'again' });
  expect(launched).toHaveLength(2);
  await h.service.registries.tools.execute('lazy_crash', {});
  const stuck = await h.until('lazy', (i) => i.state === 'failed' && /stays off/.test(i.reason ?? ''));
  expect(stuck.reason).toMatch(/It crashed 2 times in 5 minutes, so it stays off until you enable it again\./);
  expect(toolNames(h)).toEqual([]);
  expect((await h.service.registries.tools.execute('lazy_peek', {})).isError).toBe(true);
  expect(launched).toHaveLength(2);
});

test('an idle-stoppable plugin stops after its idle time, back to not started with its static declarations, and starts again on the next call', async () => {
  // 0.005 minutes: 300 ms.
  const { h, launched } = lazyHarness([fixture('lazy', { idleStopMinutes: 0.005 })]);
  await h.service.start();
  const first = text(await h.service.registries.tools.execute('lazy_peek', { text: 'one' }));
  const firstPid = launched[0]!.pid!;
  expect(first).toBe(`one from ${firstPid}`);
  expect(h.service.ledger.labels('lazy')).toContain('idle-stop');
  const gone = exited(launched[0]!);
  const idle = await h.until('lazy', (i) => i.state === 'idle');
  await gone;
  expect(idle.pid).toBeNull();
  expect(isAlive(firstPid)).toBe(false);
  expect(toolNames(h)).toEqual(['lazy_peek', 'lazy_extra']);
  expect(h.service.registries.statusSegments.list().map((s) => s.text)).toEqual(['lazy: not started']);
  expect(h.service.logs('lazy').map((l) => l.message)).toContainEqual(expect.stringMatching(/Stopped after 0\.005 minute\(s\) without use/));

  const second = text(await h.service.registries.tools.execute('lazy_peek', { text: 'two' }));
  expect(launched).toHaveLength(2);
  expect(second).toBe(`two from ${launched[1]!.pid}`);
  expect(launched[1]!.pid).not.toBe(firstPid);
});

test('a call that outlasts the idle time keeps the plugin running until it has answered', async () => {
  // 0.005 minutes: 300 ms; the call takes 900.
  const { h, launched } = lazyHarness([fixture('lazy', { idleStopMinutes: 0.005 })]);
  await h.service.start();
  await h.service.registries.tools.execute('lazy_peek', { text: 'start' });
  const states: string[] = [];
  h.service.onDidChange((info) => states.push(info.state));
  const out = await h.service.registries.tools.execute('lazy_wait', { ms: 900 });
  expect(out).toMatchObject({ isError: false, content: [{ text: 'waited 900 ms' }] });
  expect(states).toEqual([]);
  expect(launched).toHaveLength(1);
  await h.until('lazy', (i) => i.state === 'idle');
});

test('a call stopped while its plugin is starting is cancelled in the plugin once it runs, not left running there', async () => {
  const { h } = lazyHarness();
  await h.service.start();
  const controller = new AbortController();
  const cancelled = h.nextEvent('lazy.cancelled', 5000);
  const out = h.service.registries.tools.execute('lazy_peek', { text: 'x', waitMs: 60_000 }, controller.signal);
  controller.abort();
  expect(await out).toMatchObject({ isError: true, content: [{ text: "The call to 'lazy_peek' was aborted." }] });
  expect(await cancelled).toEqual({ waitMs: 60_000 });
});

test('events that pile up while it starts are capped: the first 64 are delivered in order, the rest dropped and counted', async () => {
  const { h } = lazyHarness();
  await h.service.start();
  const heard: number[] = [];
  const all = new Promise<void>((resolve) =>
    h.service.events.on('lazy.heard', (payload) => {
      heard.push((payload as { n: number }).n);
      if (heard.length === 64) resolve();
    }),
  );
  for (let n = 0; n < 100; n++) h.service.events.emit('lazy.poke', { n });
  expect(h.service.get('lazy').dropped.events).toBe(36);
  await all;
  expect(heard).toEqual(Array.from({ length: 64 }, (_, n) => n));
});

test('a plugin without idleStopMinutes has no idle watch: once started it runs until switched off', async () => {
  const { h, launched } = lazyHarness();
  await h.service.start();
  await h.service.registries.tools.execute('lazy_peek', { text: 'x' });
  expect(h.service.ledger.labels('lazy')).not.toContain('idle-stop');
  expect(h.service.get('lazy').state).toBe('active');
  expect(isAlive(launched[0]!.pid!)).toBe(true);
});

test('a start that fails fails the call with a sentence naming the plugin and why, and the plugin is Failed', async () => {
  const { h } = lazyHarness();
  h.config.set('lazy', { failInit: true });
  await h.service.start();
  const out = await h.service.registries.tools.execute('lazy_peek', { text: 'x' });
  expect(out.isError).toBe(true);
  expect(text(out)).toMatch(/^The plugin Lazy could not be started: .+/);
  expect(text(out)).toContain(h.service.get('lazy').reason!);
  const info = h.service.get('lazy');
  expect(info.state).toBe('failed');
  expect(info.pid).toBeNull();
  expect(toolNames(h)).toEqual([]);
  expect(h.service.ledger.size('lazy')).toBe(0);
  const command = await h.service.registries.commands.run(['lazy', 'hello']);
  expect(command).toMatchObject({ isError: true, output: "There is no command 'lazy hello'." });
});

test('a statically declared tool the running plugin no longer declares is withdrawn while it runs, with a line in its log', async () => {
  const { h } = lazyHarness();
  h.config.set('lazy', { drop: true });
  await h.service.start();
  await h.service.registries.tools.execute('lazy_peek', { text: 'x' });
  expect(toolNames(h)).toEqual(['lazy_peek', 'lazy_wait', 'lazy_crash']);
  expect(h.service.get('lazy').contributions.map((c) => c.key)).not.toContain('lazy_extra');
  expect(h.service.ledger.labels('lazy').filter((l) => l.startsWith('static:'))).toEqual([]);
  expect(h.service.logs('lazy').map((l) => l.message)).toContainEqual(
    "Its manifest declares the tool 'lazy_extra', but the plugin did not declare it when it started, so it is withdrawn until the plugin stops.",
  );
  expect((await h.service.registries.tools.execute('lazy_extra', {})).isError).toBe(true);
});

test('a statically declared tool the running plugin declines is withdrawn and listed as declined', async () => {
  const { h } = lazyHarness();
  h.config.set('lazy', { declineExtra: true });
  await h.service.start();
  await h.service.registries.tools.execute('lazy_peek', { text: 'x' });
  expect(toolNames(h)).not.toContain('lazy_extra');
  expect(h.service.get('lazy').contributions).toContainEqual({ kind: 'tool', key: 'lazy_extra', status: 'declined', reason: 'The config says no.' });
});

test('a static tool whose name another plugin holds fails the lazy plugin at switch-on, naming the tool, and leaves the other alone', async () => {
  const squatter = fixture('lazy', {
    enabledByDefault: false,
    contributes: [{ kind: 'tool', name: 'echo', description: 'Mine now.', parameters: { type: 'object', properties: {} }, readOnly: true }],
    activationEvents: ['onTool'],
  });
  const { h, launched } = lazyHarness([fixture('echo'), squatter]);
  await h.service.start();
  const info = await h.service.setState('lazy', true);
  expect(info.state).toBe('failed');
  expect(info.reason).toBe("Its manifest declares something that cannot be installed: The tool 'echo' is already registered by the plugin 'echo'.");
  expect(h.service.ledger.size('lazy')).toBe(0);
  expect(launched).toHaveLength(0);
  expect(text(await h.service.registries.tools.execute('echo', { text: 'still mine' }))).toBe('still mine');
});

test('the bundled workspace tools hold no process until the model calls one, and then answer from the conversation folder', async () => {
  const tools = descriptor(join(import.meta.dirname, '../../src/plugins/workspace-tools'));
  const launched: PluginProcess[] = [];
  const h = createHarness([tools], {}, { onLaunch: (_id, proc) => launched.push(proc) });
  current = h;
  await h.service.start();
  expect(h.service.get('workspace_tools')).toMatchObject({ state: 'idle', pid: null });
  expect(toolNames(h)).toEqual(['read', 'ls', 'find', 'grep', 'write', 'edit', 'bash']);
  expect(launched).toHaveLength(0);
  writeFileSync(join(h.dir, 'note.txt'), 'lazy but here\n');
  const out = await h.service.registries.tools.execute('read', { path: 'note.txt' }, undefined, { sessionId: 's1', workspace: h.dir, denied: [] });
  expect(out.isError).toBe(false);
  expect(text(out)).toContain('lazy but here');
  expect(launched).toHaveLength(1);
  expect(h.service.get('workspace_tools').state).toBe('active');
});

const badBase = { version: '1.0.0', name: 'Bad', protocolVersion: 1, entry: 'index.js', activationEvents: ['onTool'] };
const peek = (extra: Record<string, unknown> = {}) => ({
  kind: 'tool',
  name: 'peek',
  description: 'Peeks.',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  ...extra,
});

test('a user plugin whose manifest has an oversized, duplicate or garbage static declaration is refused at discovery with the field named', () => {
  const root = mkdtempSync(join(tmpdir(), 'amber-lazy-manifests-'));
  try {
    const manifests: Record<string, Record<string, unknown>> = {
      oversized: { contributes: [peek({ description: 'x'.repeat(5000) })] },
      duplicate: { contributes: [peek(), peek()] },
      garbage: { contributes: [{ kind: 'tool', name: 42 }] },
      wrongkind: { contributes: [{ kind: 'hook', point: 'input' }] },
      unknown_event: { contributes: [peek()], activationEvents: ['onTool:nope'] },
    };
    for (const [id, extra] of Object.entries(manifests)) {
      mkdirSync(join(root, id));
      writeFileSync(join(root, id, 'manifest.json'), JSON.stringify({ id, ...badBase, ...extra }));
      writeFileSync(join(root, id, 'index.js'), 'export default {};');
    }
    const found = discoverPlugins({ bundledRoot: root, bundledIds: [], userRoot: root });
    expect(found.plugins).toEqual([]);
    const reasons = Object.fromEntries(found.problems.map((p) => [p.dir.split(/[\\/]/).pop(), p.reason.replace(/^.*manifest\.json: /, '')]));
    expect(reasons).toEqual({
      duplicate: "contributes.1: the tool 'peek' is declared twice",
      garbage: expect.stringMatching(/^contributes\.0\.name: /),
      oversized: "contributes.0.description: a tool's description is at most 4,096 characters",
      unknown_event: "activationEvents.0: 'onTool:nope' names a tool that contributes does not declare",
      wrongkind: expect.stringMatching(/^contributes\.0\.kind: /),
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
