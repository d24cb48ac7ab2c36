// Owners announce their own changes and one map in createApp turns them into window events: a change made
// through any route or command reaches the window exactly once, whoever made it.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startHeadless } from '../../src/main/headless/headless-shell.ts';
import type { SessionSummary } from '../../src/shared/sessions/index.ts';
import { ScriptedProvider, text } from '../agent/scripted-provider.ts';
import type { AppUnderTest } from '../fixtures/app-under-test.ts';
import { openScriptedApp } from '../fixtures/open-scripted-app.ts';
import { connectWs } from '../fixtures/ws-client.ts';

const USER_PLUGIN = resolve(import.meta.dirname, '../fixtures/user-plugins/hello_user');

let t: AppUnderTest;
let provider: ScriptedProvider;

beforeEach(() => {
  provider = new ScriptedProvider();
  t = openScriptedApp(provider, { prefix: 'amber-window-events-' });
});

afterEach(async () => {
  await t.close();
});

/** The events heard since the last look, by name (and cleared). */
function heard(): string[] {
  const names = t.events.map((e) => e.event);
  t.events.length = 0;
  return names;
}

const count = (names: string[], name: string) => names.filter((n) => n === name).length;
const run = (input: string, sessionId: string | null = null) => t.call<{ result: string }>('commands.run', { input, sessionId });

test('a session made, renamed, deleted and restored reaches the window once each, by route or by /new', async () => {
  const a = await t.call<SessionSummary>('sessions.create', { title: 'Plans' });
  expect(t.events).toEqual([{ event: 'session.created', payload: a }]);
  heard();
  await run('/new Trips');
  expect(heard()).toEqual(['session.created']);
  await t.call('sessions.rename', { sessionId: a.id, title: 'Renamed' });
  expect(t.events).toEqual([{ event: 'session.updated', payload: expect.objectContaining({ id: a.id, title: 'Renamed' }) }]);
  heard();
  await t.call('sessions.delete', { sessionId: a.id });
  expect(t.events).toEqual([{ event: 'session.deleted', payload: { sessionId: a.id } }]);
  heard();
  await t.call('sessions.restore', { sessionId: a.id });
  expect(t.events).toEqual([{ event: 'session.created', payload: expect.objectContaining({ id: a.id, title: 'Renamed' }) }]);
});

test('the leaf moved by a branch switch, a label, or a thinking level reaches the window once, by route or by command', async () => {
  const s = t.app.sessions.create({ title: 'tree' });
  const first = t.app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: 'one' } });
  t.app.sessions.append(s.id, { type: 'message', message: { role: 'user', content: 'two' } });
  heard();
  const moves = () => t.events.filter((e) => e.event === 'session.leafMoved').map((e) => e.payload);

  await t.call('sessions.branch', { sessionId: s.id, entryId: first.id });
  expect(moves()).toEqual([{ sessionId: s.id, leafId: first.id }]);
  expect(count(heard(), 'session.leafMoved')).toBe(1);
  await run(`/branch ${first.id}`, s.id);
  expect(count(heard(), 'session.leafMoved')).toBe(1);

  const labelled = await t.call<{ leafId: string }>('entries.label', { sessionId: s.id, targetId: first.id, label: 'start' });
  expect(moves()).toEqual([{ sessionId: s.id, leafId: labelled.leafId }]);
  expect(count(heard(), 'session.leafMoved')).toBe(1);
  await run('/label again', s.id);
  expect(count(heard(), 'session.leafMoved')).toBe(1);

  await t.call('chat.setThinking', { sessionId: s.id, level: 'high' });
  expect(count(heard(), 'session.leafMoved')).toBe(1);
  await run('/thinking low', s.id);
  const names = heard();
  expect(count(names, 'session.leafMoved')).toBe(1);
  // Each move also pushes the new summary (its leaf and updated time), once.
  expect(count(names, 'session.updated')).toBe(1);
  expect(t.app.sessions.get(s.id).leafId).toBe(t.app.sessions.leaf(s.id));
});

test("a conversation's folder set by route or by /workspace reaches the window once as its new summary", async () => {
  const s = t.app.sessions.create({ title: 'folder' });
  const other = join(t.dir, 'other');
  mkdirSync(other);
  heard();
  await t.call('sessions.setWorkspace', { sessionId: s.id, path: other });
  expect(t.events).toEqual([{ event: 'session.updated', payload: expect.objectContaining({ id: s.id, cwd: expect.stringContaining('other') }) }]);
  heard();
  await run(`/workspace ${join(t.dir, 'ws')}`, s.id);
  expect(heard()).toEqual(['session.updated']);
});

test('a run pushes its summary as it grows and never moves the leaf on the window: the run tells its own entries', async () => {
  const s = t.app.sessions.create({ title: 'run' });
  heard();
  provider.push(text('hello back'));
  await t.app.agent.prompt(s.id, 'hello');
  const names = t.events.map((e) => e.event);
  expect(count(names, 'session.leafMoved')).toBe(0);
  const summaries = t.events.filter((e) => e.event === 'session.updated').map((e) => e.payload as SessionSummary);
  // One per entry the run appended (the prompt, then the reply), each newer than the last.
  expect(summaries.map((x) => x.messageCount)).toEqual([1, 2]);
  expect(summaries.at(-1)).toEqual(t.app.sessions.get(s.id));
  expect(count(names, 'agent.emitted')).toBeGreaterThan(0);
});

test('regenerating a reply or editing a message moves the leaf on the window once, before its run tells the rest', async () => {
  const s = t.app.sessions.create({ title: 'again' });
  provider.push(text('first answer'));
  await t.app.agent.prompt(s.id, 'question');
  const [question, answer] = t.app.sessions.path(s.id);
  heard();
  provider.push(text('second answer'));
  const { runId } = await t.call<{ runId: string }>('chat.regenerate', { sessionId: s.id, entryId: answer!.id });
  await t.app.agent.settled(s.id);
  const moves = t.events.filter((e) => e.event === 'session.leafMoved');
  expect(moves).toEqual([{ event: 'session.leafMoved', payload: { sessionId: s.id, leafId: question!.id } }]);
  // The move comes before anything of the run it starts.
  expect(t.events.findIndex((e) => e.event === 'session.leafMoved')).toBeLessThan(
    t.events.findIndex((e) => e.event === 'agent.emitted' && (e.payload as { runId: string }).runId === runId),
  );
  heard();
  provider.push(text('third answer'));
  await t.call('chat.send', { sessionId: s.id, text: 'question, edited', parentId: null });
  await t.app.agent.settled(s.id);
  expect(t.events.filter((e) => e.event === 'session.leafMoved').map((e) => e.payload)).toEqual([{ sessionId: s.id, leafId: null }]);
});

test('the policy mode and the sandbox network, set by route or by command, reach the window once each', async () => {
  const s = t.app.sessions.create({ title: 'policy' });
  heard();
  await t.call('policy.setMode', { sessionId: s.id, mode: 'read' });
  expect(t.events).toEqual([{ event: 'policy.changed', payload: { sessionId: s.id } }]);
  heard();
  await run('/set policy write', s.id);
  expect(heard()).toEqual(['policy.changed']);
  await t.call('policy.setApprovalTimeout', { seconds: 30 });
  expect(t.events).toEqual([{ event: 'policy.changed', payload: { sessionId: null } }]);
  heard();
  await run('/sandbox network on', s.id);
  expect(count(heard(), 'policy.changed')).toBe(1);
});

test('the wallet threshold and an MCP servers edit reach the window once each', async () => {
  await t.call('wallets.setThreshold', { threshold: 5 });
  expect(t.events).toEqual([{ event: 'wallets.changed', payload: { wallets: [], threshold: 5 } }]);
  heard();
  await t.call('mcp.setEnabled', { name: 'files', enabled: false });
  expect(heard()).toEqual(['mcp.changed']);
});

test("a plugin status segment coming and going reaches the window once each, with the plugins' segments", async () => {
  const segment = t.app.plugins.registries.statusSegments.register('demo', 'demo.s', { id: 'demo.s', text: 'hi', priority: 10 });
  expect(t.events).toEqual([{ event: 'status.changed', payload: { sessionId: null, segments: [expect.objectContaining({ id: 'demo.s', source: 'demo' })] } }]);
  heard();
  segment.dispose();
  expect(t.events).toEqual([{ event: 'status.changed', payload: { sessionId: null, segments: [] } }]);
});

test('an approval question and its answer by route reach the window once each', async () => {
  const s = t.app.sessions.create({ title: 'ask' });
  heard();
  const question = { id: 'q1', sessionId: s.id, toolName: 'write_file', toolCallId: 'c1', args: {}, folder: null, reason: 'It writes a file.' };
  const reply = t.app.approvals.ask(question, new AbortController().signal);
  expect(t.events).toEqual([{ event: 'approval.requested', payload: question }]);
  heard();
  await t.call('approvals.answer', { questionId: 'q1', answer: 'once' });
  expect(await reply).toEqual({ answer: 'once' });
  expect(t.events).toEqual([{ event: 'approval.settled', payload: { questionId: 'q1', answer: 'once' } }]);
});

test('a folder asked for by a run, then chosen by route, reaches the window once as a request, a settle and a summary', async () => {
  const s = t.app.sessions.create({ title: 'no folder' });
  heard();
  const root = t.app.workspaces.forRun(s.id, new AbortController().signal);
  expect(t.events).toEqual([{ event: 'workspace.requested', payload: { sessionId: s.id } }]);
  heard();
  await t.call('sessions.setWorkspace', { sessionId: s.id, path: join(t.dir, 'ws') });
  expect(await root).toContain('ws');
  expect(heard().sort()).toEqual(['session.updated', 'workspace.settled']);
});

test('a feed coming and going in the command tree reaches the window once each', async () => {
  heard();
  const feed = t.app.commands.tree.registerFeed('demo-feed', () => [{ name: 'one', help: 'One' }]);
  expect(heard()).toEqual(['commands.changed']);
  feed.dispose();
  expect(heard()).toEqual(['commands.changed']);
});

test("a user plugin switched on and off by route: each of the catalog's announcements reaches the window once", async () => {
  mkdirSync(join(t.dataDir, 'plugins'), { recursive: true });
  cpSync(USER_PLUGIN, join(t.dataDir, 'plugins', 'hello_user'), { recursive: true });
  await t.app.plugins.rescan();
  const announced: string[] = [];
  const sub = t.app.plugins.onDidChange((info) => announced.push(`${info.id} ${info.state}`));
  heard();
  try {
    await t.call('plugins.setState', { id: 'hello_user', enabled: true, confirm: true });
    await t.call('plugins.setState', { id: 'hello_user', enabled: false });
  } finally {
    sub.dispose();
  }
  const sent = t.events
    .filter((e) => e.event === 'plugins.changed')
    .map((e) => `${(e.payload as { id: string }).id} ${(e.payload as { state: string }).state}`);
  expect(announced).toContain('hello_user active');
  expect(sent).toEqual(announced);
});

test('a wallet refreshed by route reaches the window once, with when it was read or why it failed', async () => {
  let failure: string | null = null;
  const refresh = async () => {
    if (failure !== null) throw new Error(failure);
    return { balance: 7, currency: 'usd' };
  };
  t.app.plugins.registries.wallets.register('demo', 'demo.w', { id: 'demo.w', provider: 'demo', state: { balance: 5, currency: 'usd' }, refresh });
  heard();
  const fresh = await t.call<{ balance: number; refreshedAt: number | null }>('wallets.refresh', { id: 'demo.w' });
  expect(fresh).toMatchObject({ balance: 7, refreshedAt: expect.any(Number) });
  expect(t.events).toEqual([
    {
      event: 'wallets.changed',
      payload: { wallets: [expect.objectContaining({ id: 'demo.w', balance: 7, refreshedAt: fresh.refreshedAt, error: null })], threshold: null },
    },
  ]);
  heard();
  failure = 'The account could not be read.';
  await t.call('wallets.refresh', { id: 'demo.w' });
  expect(t.events).toEqual([
    {
      event: 'wallets.changed',
      payload: { wallets: [expect.objectContaining({ balance: 7, error: expect.stringContaining('could not be read') })], threshold: null },
    },
  ]);
});

test('over the real WebSocket, a session made by route and one made by /new each reach the window once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'amber-window-ws-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Amber</title>');
  mkdirSync(join(dir, 'ws'));
  const shell = await startHeadless({
    dataDir: join(dir, 'data'),
    rendererDir: join(dir, 'renderer'),
    core: { workspace: join(dir, 'ws'), startPlugins: false },
  });
  try {
    const ws = await connectWs(shell.port, shell.token);
    try {
      const made = await ws.call<SessionSummary>('sessions.create', { title: 'by route' });
      const ran = await ws.call<{ openSessionId: string }>('commands.run', { input: '/new by command', sessionId: null });
      // Wait for both, then for a later event: nothing else about them is still on its way.
      await ws.waitFor<SessionSummary>('session.created', (p) => p.id === ran.openSessionId);
      await ws.call('sessions.rename', { sessionId: made.id, title: 'marker' });
      await ws.waitFor<SessionSummary>('session.updated', (p) => p.title === 'marker');
      const created = ws.events.filter((e) => e.event === 'session.created').map((e) => (e.payload as SessionSummary).id);
      expect(created).toEqual([made.id, ran.openSessionId]);
    } finally {
      ws.close();
    }
  } finally {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
