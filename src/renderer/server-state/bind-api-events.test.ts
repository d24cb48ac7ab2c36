import { expect, test } from 'vitest';
import {
  API_EVENTS,
  type Channel,
  type EventName,
  type PluginListing,
  type PluginView,
  type StatusBarView,
  type StatusSegmentView,
} from '../../shared/api/index.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import type { AmberClient } from '../api/index.ts';
import { bindApiEvents } from './bind-api-events.ts';
import { createServerQueryClient } from './server-query-client.ts';
import { serverKeys } from './server-keys.ts';

/** A client whose events the test sends, parsed by the contract's schemas as the real client does. */
function fakeClient(answers: Partial<Record<Channel, (input: unknown) => unknown>> = {}) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connection = new Set<(connected: boolean) => void>();
  const calls: Channel[] = [];
  const client = {
    transport: 'websocket',
    call: async (channel: Channel, input: unknown) => {
      calls.push(channel);
      const answer = answers[channel];
      if (!answer) throw new Error(`unexpected call ${channel}`);
      return answer(input);
    },
    on: (event: EventName, listener: (payload: unknown) => void) => {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const parsed = (raw: unknown) => {
        const r = API_EVENTS[event].safeParse(raw);
        if (r.success) listener(r.data);
      };
      set.add(parsed);
      return () => set.delete(parsed);
    },
    onConnectionChange: (listener: (connected: boolean) => void) => {
      connection.add(listener);
      return () => connection.delete(listener);
    },
  } as unknown as AmberClient;
  const emit = (event: EventName, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  const reconnect = () => {
    for (const l of connection) l(true);
  };
  return { client, emit, reconnect, calls, listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0) + connection.size };
}

const seg = (id: string, source: string, priority: number): StatusSegmentView => ({ id, text: id, priority, source, tone: 'normal' });
const summary = (id: string, updatedAt: number): SessionSummary => ({
  id,
  title: id,
  createdAt: 0,
  updatedAt,
  leafId: null,
  messageCount: 0,
  preview: '',
  cwd: null,
});

test("status.changed for a session replaces that session's cached bar and no other", () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  queries.setQueryData<StatusBarView>(serverKeys.status('a'), { sessionId: 'a', segments: [seg('core.model', 'core', 1000)] });
  queries.setQueryData<StatusBarView>(serverKeys.status('b'), { sessionId: 'b', segments: [seg('core.model', 'core', 1000)] });
  const next: StatusBarView = { sessionId: 'a', segments: [seg('core.model', 'core', 1000), seg('core.tokens', 'core', 990)] };
  emit('status.changed', next);
  expect(queries.getQueryData(serverKeys.status('a'))).toEqual(next);
  expect(queries.getQueryData<StatusBarView>(serverKeys.status('b'))?.segments.map((s) => s.id)).toEqual(['core.model']);
});

test("status.changed for every session swaps the plugins' segments and keeps each session's core ones", () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  queries.setQueryData<StatusBarView>(serverKeys.status('a'), { sessionId: 'a', segments: [seg('core.model', 'core', 1000), seg('old.segment', 'old', 5)] });
  queries.setQueryData<StatusBarView>(serverKeys.status(null), { sessionId: null, segments: [seg('old.segment', 'old', 5)] });
  emit('status.changed', { sessionId: null, segments: [seg('example.greetings', 'example', 10)] });
  expect(queries.getQueryData<StatusBarView>(serverKeys.status('a'))?.segments.map((s) => s.id)).toEqual(['core.model', 'example.greetings']);
  expect(queries.getQueryData<StatusBarView>(serverKeys.status(null))?.segments.map((s) => s.id)).toEqual(['example.greetings']);
});

test('a malformed status.changed (the old payload without a view) leaves the cache alone', () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  const bar: StatusBarView = { sessionId: 'a', segments: [seg('core.model', 'core', 1000)] };
  queries.setQueryData(serverKeys.status('a'), bar);
  emit('status.changed', { sessionId: 'a' });
  emit('status.changed', { sessionId: null, segments: [{ id: 'x' }] });
  expect(queries.getQueryData(serverKeys.status('a'))).toEqual(bar);
});

test('session events keep every cached list newest first; a deleted session leaves them', () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  queries.setQueryData(serverKeys.sessions(''), { sessions: [summary('b', 2), summary('a', 1)] });
  const ids = () => queries.getQueryData<{ sessions: SessionSummary[] }>(serverKeys.sessions(''))?.sessions.map((s) => s.id);
  emit('session.updated', summary('a', 3));
  expect(ids()).toEqual(['a', 'b']);
  emit('session.created', summary('c', 4));
  expect(ids()).toEqual(['c', 'a', 'b']);
  // Only a payload the contract accepts reaches the cache.
  emit('session.created', { id: 'd' });
  expect(ids()).toEqual(['c', 'a', 'b']);
  emit('session.deleted', { sessionId: 'b' });
  expect(ids()).toEqual(['c', 'a']);
});

test("a run never has the session's summary read again: main pushes it as session.updated", () => {
  const { client, emit, calls } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  queries.setQueryData(serverKeys.sessions(''), { sessions: [summary('b', 2), summary('a', 1)] });
  const user = { type: 'message', id: 'e1', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'hi' } };
  emit('agent.emitted', { sessionId: 'a', runId: 'r', type: 'entry_appended', entry: user });
  emit('agent.emitted', { sessionId: 'a', runId: 'r', type: 'agent_settled' });
  expect(calls).toEqual([]);
  emit('session.updated', { ...summary('a', 3), messageCount: 2 });
  const list = queries.getQueryData<{ sessions: SessionSummary[] }>(serverKeys.sessions(''))?.sessions;
  expect(list?.map((s) => [s.id, s.messageCount])).toEqual([
    ['a', 2],
    ['b', 0],
  ]);
});

const plugin = (id: string, state: PluginView['state']): PluginView => ({
  id,
  name: id,
  description: '',
  category: 'other',
  version: '1.0.0',
  source: 'bundled',
  state,
  reason: null,
  enabled: state === 'active',
  pid: null,
  contributions: [],
  needsConfirmation: false,
  declares: [],
  recentCrashes: 0,
  hasSettings: false,
  process: 'own',
});

test("plugins.changed lays the plugin's new view in the cached listing, and adds a plugin found since", () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  queries.setQueryData<PluginListing>(serverKeys.plugins, { plugins: [plugin('a', 'registered'), plugin('b', 'active')], folder: '/p', problems: [] });
  emit('plugins.changed', plugin('a', 'active'));
  emit('plugins.changed', plugin('c', 'registered'));
  emit('plugins.changed', { id: 'b', state: 'no such state' });
  const listing = queries.getQueryData<PluginListing>(serverKeys.plugins);
  expect(listing?.plugins.map((p) => [p.id, p.state])).toEqual([
    ['a', 'active'],
    ['b', 'active'],
    ['c', 'registered'],
  ]);
  expect(listing?.folder).toBe('/p');
});

test('panels, wallets and allowances events replace the cached value; a commands event has them read again', async () => {
  const { client, emit, calls } = fakeClient({ 'commands.list': () => [] });
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  emit('panels.changed', { panels: [] });
  emit('wallets.changed', { wallets: [], threshold: 3 });
  emit('allowances.changed', { allowances: [] });
  expect(queries.getQueryData(serverKeys.panels)).toEqual([]);
  expect(queries.getQueryData(serverKeys.wallets)).toEqual({ wallets: [], threshold: 3 });
  expect(queries.getQueryData(serverKeys.allowances)).toEqual([]);

  await queries.fetchQuery({ queryKey: serverKeys.commands, queryFn: () => client.call('commands.list', {}) });
  expect(queries.getQueryState(serverKeys.commands)?.isInvalidated).toBe(false);
  emit('commands.changed', {});
  expect(queries.getQueryState(serverKeys.commands)?.isInvalidated).toBe(true);
  expect(calls).toEqual(['commands.list']);
});

test('a moved branch invalidates its status and siblings only; a reconnect invalidates everything; unbinding stops it all', () => {
  const { client, emit, reconnect, listenerCount } = fakeClient();
  const queries = createServerQueryClient();
  const unbind = bindApiEvents(client, queries);
  queries.setQueryData(serverKeys.status('a'), { sessionId: 'a', segments: [] });
  queries.setQueryData(serverKeys.status('b'), { sessionId: 'b', segments: [] });
  queries.setQueryData(serverKeys.siblings('a', ['e1']), {});
  queries.setQueryData(serverKeys.panels, []);
  emit('session.leafMoved', { sessionId: 'a', leafId: 'e1' });
  const invalid = (key: readonly unknown[]) => queries.getQueryState(key)?.isInvalidated;
  expect([invalid(serverKeys.status('a')), invalid(serverKeys.siblings('a', ['e1'])), invalid(serverKeys.status('b')), invalid(serverKeys.panels)]).toEqual([
    true,
    true,
    false,
    false,
  ]);
  reconnect();
  expect([invalid(serverKeys.status('b')), invalid(serverKeys.panels)]).toEqual([true, true]);

  expect(listenerCount()).toBeGreaterThan(0);
  unbind();
  expect(listenerCount()).toBe(0);
});

test("a moved branch has the branch's model and thinking level read again; policy and plugin events name what they change", () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  const keys = [
    serverKeys.models('a'),
    serverKeys.thinking('a'),
    serverKeys.models('b'),
    serverKeys.policy('a'),
    serverKeys.policy('b'),
    serverKeys.policy(null),
  ];
  for (const key of keys) queries.setQueryData(key, {});
  const invalid = () => keys.map((key) => queries.getQueryState(key)?.isInvalidated);
  emit('session.leafMoved', { sessionId: 'a', leafId: null });
  expect(invalid()).toEqual([true, true, false, false, false, false]);
  emit('policy.changed', { sessionId: 'b' });
  expect(invalid()).toEqual([true, true, false, false, true, false]);
  emit('policy.changed', { sessionId: null });
  expect(invalid()).toEqual([true, true, false, true, true, true]);
  for (const key of keys) queries.setQueryData(key, {});
  emit('plugins.changed', plugin('p', 'active'));
  expect(invalid()).toEqual([true, false, true, true, true, true]);
});

test("the end of a run or a moved branch has that session's tree and versions read again, no other session's", () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  const keys = [serverKeys.tree('a'), serverKeys.siblings('a', ['e1']), serverKeys.tree('b')];
  const reset = () => {
    for (const key of keys) queries.setQueryData(key, {});
  };
  const invalid = () => keys.map((key) => queries.getQueryState(key)?.isInvalidated);
  reset();
  emit('agent.emitted', { sessionId: 'a', runId: 'r', type: 'agent_settled' });
  expect(invalid()).toEqual([true, true, false]);
  reset();
  emit('session.leafMoved', { sessionId: 'a', leafId: 'e1' });
  expect(invalid()).toEqual([true, true, false]);
});

test("mcp.changed replaces the cached listing; a plugin's changed settings have its form read again; a folder question comes and goes", () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  const listing = { pluginActive: true, servers: [], problems: [] };
  emit('mcp.changed', listing);
  expect(queries.getQueryData(serverKeys.mcp)).toEqual(listing);

  queries.setQueryData(serverKeys.pluginConfig('a'), {});
  queries.setQueryData(serverKeys.pluginConfig('b'), {});
  emit('plugins.configChanged', { id: 'a' });
  expect([queries.getQueryState(serverKeys.pluginConfig('a'))?.isInvalidated, queries.getQueryState(serverKeys.pluginConfig('b'))?.isInvalidated]).toEqual([
    true,
    false,
  ]);

  // A list never read stays unread (the first read brings it whole); a read one follows the events.
  emit('workspace.requested', { sessionId: 's1' });
  expect(queries.getQueryData(serverKeys.workspacePending)).toBeUndefined();
  queries.setQueryData(serverKeys.workspacePending, [{ sessionId: 's0' }]);
  emit('workspace.requested', { sessionId: 's1' });
  emit('workspace.requested', { sessionId: 's1' });
  expect(queries.getQueryData(serverKeys.workspacePending)).toEqual([{ sessionId: 's0' }, { sessionId: 's1' }]);
  emit('workspace.settled', { sessionId: 's0' });
  expect(queries.getQueryData(serverKeys.workspacePending)).toEqual([{ sessionId: 's1' }]);
});

const question = (id: string) => ({ id, sessionId: 's', toolName: 'write', toolCallId: `call_${id}`, args: {}, folder: null, reason: 'Asks.' });

test('a question asked joins the waiting approvals once, and leaves them when it is answered anywhere', () => {
  const { client, emit } = fakeClient();
  const queries = createServerQueryClient();
  bindApiEvents(client, queries);
  queries.setQueryData(serverKeys.approvals, [question('q1')]);
  emit('approval.requested', question('q2'));
  emit('approval.requested', question('q2'));
  expect(queries.getQueryData<{ id: string }[]>(serverKeys.approvals)?.map((q) => q.id)).toEqual(['q1', 'q2']);
  emit('approval.settled', { questionId: 'q1', answer: 'once' });
  expect(queries.getQueryData<{ id: string }[]>(serverKeys.approvals)?.map((q) => q.id)).toEqual(['q2']);
});
