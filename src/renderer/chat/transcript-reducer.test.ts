import { expect, test } from 'vitest';
import type { AgentEvent } from '../../shared/agent/index.ts';
import type { Entry } from '../../shared/sessions/index.ts';
import { openTranscript, reloadPending, type TranscriptAction, type TranscriptState, transcriptReducer } from './transcript-reducer.ts';

const S = 'session-1';
const entry = (id: string, parentId: string | null, text = id): Entry =>
  ({ id, parentId, type: 'message', timestamp: '2026-11-30T00:00:00.000Z', message: { role: 'user', content: text } }) as unknown as Entry;
const reduce = (s: TranscriptState, ...actions: TranscriptAction[]) => actions.reduce(transcriptReducer, s);
const agent = (event: Record<string, unknown>): TranscriptAction => ({
  type: 'agentEvent',
  event: { sessionId: S, runId: 'r1', ...event } as unknown as AgentEvent,
});
const page = (entries: Entry[], seq = 1): TranscriptAction => ({
  type: 'pageLoaded',
  sessionId: S,
  seq,
  page: { entries, leafId: entries.at(-1)?.id ?? null, before: null, changed: [] },
});
const delta = (d: Record<string, unknown>) =>
  ({ sessionId: S, runId: 'r1', type: 'message_update', delta: d }) as unknown as Extract<AgentEvent, { type: 'message_update' }>;
const loaded = (...entries: Entry[]) => reduce(openTranscript(S), page(entries));
const ids = (s: TranscriptState) => s.entries.map((e) => e.id);

test('opening a session asks for its first page, and the page answering that request is shown', () => {
  const opened = openTranscript(S);
  expect(opened).toMatchObject({ loading: true, reloadSeq: 1, loadedSeq: 0 });
  expect(reloadPending(opened)).toBe(true);
  const s = reduce(opened, page([entry('a', null), entry('b', 'a')]));
  expect(ids(s)).toEqual(['a', 'b']);
  expect(s).toMatchObject({ leafId: 'b', loading: false, generation: 1 });
  expect(reloadPending(s)).toBe(false);
  expect(openTranscript(null)).toMatchObject({ loading: false, reloadSeq: 0 });
});

test('a page answering an older request, or another session, is dropped', () => {
  const s = reduce(openTranscript(S), { type: 'reloadRequested' });
  expect(s.reloadSeq).toBe(2);
  const afterOld = reduce(s, page([entry('old', null)], 1));
  expect(afterOld).toBe(s);
  expect(reduce(s, { type: 'pageLoaded', sessionId: 'other', seq: 2, page: { entries: [entry('x', null)], leafId: 'x', before: null, changed: [] } })).toBe(s);
  expect(ids(reduce(s, page([entry('new', null)], 2)))).toEqual(['new']);
});

test('an entry written under the leaf is appended and moves the leaf; a duplicate changes nothing', () => {
  const s = reduce(loaded(entry('a', null)), agent({ type: 'entry_appended', entry: entry('b', 'a') }));
  expect(ids(s)).toEqual(['a', 'b']);
  expect(s.leafId).toBe('b');
  expect(reduce(s, agent({ type: 'entry_appended', entry: entry('b', 'a') }))).toBe(s);
});

test('an entry written elsewhere in the tree asks for the branch again instead of being appended', () => {
  const s = reduce(loaded(entry('a', null), entry('b', 'a')), agent({ type: 'entry_appended', entry: entry('c', 'a') }));
  expect(ids(s)).toEqual(['a', 'b']);
  expect(reloadPending(s)).toBe(true);
  expect(s.loading).toBe(true);
});

test('entries that arrive during a reload are laid on the fresh page, or ask again when they do not fit', () => {
  const pending = reduce(loaded(entry('a', null)), { type: 'reloadRequested' }, agent({ type: 'entry_appended', entry: entry('c', 'b') }));
  expect(pending.arrived.map((e) => e.id)).toEqual(['c']);
  const fits = reduce(pending, page([entry('a', null), entry('b', 'a')], 2));
  expect(ids(fits)).toEqual(['a', 'b', 'c']);
  expect(fits).toMatchObject({ leafId: 'c', arrived: [] });
  expect(reloadPending(fits)).toBe(false);

  const misfit = reduce(loaded(entry('a', null)), { type: 'reloadRequested' }, agent({ type: 'entry_appended', entry: entry('z', 'elsewhere') }));
  const after = reduce(misfit, page([entry('a', null)], 2));
  expect(ids(after)).toEqual(['a']);
  expect(after.reloadSeq).toBe(3);
  expect(reloadPending(after)).toBe(true);
});

test('a failed page ends the loading and keeps the entries that arrived for the next reload', () => {
  const s = reduce(openTranscript(S), agent({ type: 'entry_appended', entry: entry('a', null) }), { type: 'pageFailed', sessionId: S, seq: 1 });
  expect(s).toMatchObject({ loading: false, loadedSeq: 1 });
  expect(s.arrived.map((e) => e.id)).toEqual(['a']);
  expect(ids(reduce(s, { type: 'reloadRequested' }, page([], 2)))).toEqual(['a']);
});

test('older pages go in front, unless the cursor moved while they were read', () => {
  const first = reduce(openTranscript(S), {
    type: 'pageLoaded',
    sessionId: S,
    seq: 1,
    page: { entries: [entry('c', 'b')], leafId: 'c', before: 'c', changed: [] },
  });
  const asking = reduce(first, { type: 'olderRequested' });
  expect(asking.loadingOlder).toBe(true);
  const older = reduce(asking, { type: 'olderLoaded', sessionId: S, before: 'c', page: { entries: [entry('a', null), entry('b', 'a')], before: null } });
  expect(ids(older)).toEqual(['a', 'b', 'c']);
  expect(older).toMatchObject({ before: null, loadingOlder: false });
  const moved = reduce(asking, { type: 'olderLoaded', sessionId: S, before: 'somewhere-else', page: { entries: [entry('x', null)], before: null } });
  expect(ids(moved)).toEqual(['c']);
  expect(moved.loadingOlder).toBe(false);
  expect(reduce(older, { type: 'olderRequested' }).loadingOlder).toBe(false);
});

test('a streamed reply builds up from deltas and gives way to its entry', () => {
  const s0 = reduce(loaded(entry('a', null)), agent({ type: 'agent_start' }), agent({ type: 'message_start' }));
  const s1 = reduce(s0, {
    type: 'deltas',
    deltas: [
      delta({ kind: 'text', text: 'Hel' }),
      delta({ kind: 'thinking', text: 'hmm' }),
      delta({ kind: 'text', text: 'lo' }),
      delta({ kind: 'toolcall', index: 0, id: 't1', name: 'read', argumentsDelta: '{"p' }),
      delta({ kind: 'toolcall', index: 0, argumentsDelta: '":1}' }),
    ],
  });
  expect(s1.streaming).toEqual({
    text: 'Hello',
    thinking: 'hmm',
    tools: [{ id: 't1', name: 'read', args: undefined, argsText: '{"p":1}', status: 'streaming', output: '' }],
  });
  expect(s1.running).toBe(true);
  const s2 = reduce(s1, agent({ type: 'message_end', entry: entry('b', 'a') }));
  expect(s2.streaming).toBeNull();
  expect(ids(s2)).toEqual(['a', 'b']);
  const other = reduce(s1, { type: 'deltas', deltas: [{ ...delta({ kind: 'text', text: '!' }), sessionId: 'other' }] });
  expect(other).toBe(s1);
});

test("another session's events change nothing", () => {
  const s = loaded(entry('a', null));
  const foreign: TranscriptAction = {
    type: 'agentEvent',
    event: { sessionId: 'other', runId: 'r', type: 'entry_appended', entry: entry('b', 'a') } as unknown as AgentEvent,
  };
  expect(
    reduce(
      s,
      foreign,
      { type: 'approvalRequested', sessionId: 'other', questionId: 'q', toolCallId: 't' },
      { type: 'branched', sessionId: 'other', leafId: 'z' },
    ),
  ).toBe(s);
});

test('a tool card runs, waits for approval, and shows the answer; a run that ends with an error says so', () => {
  let s = reduce(
    loaded(entry('a', null)),
    agent({ type: 'tool_execution_start', toolCallId: 't1' }),
    agent({ type: 'tool_execution_update', toolCallId: 't1', text: 'one ' }),
    agent({ type: 'tool_execution_update', toolCallId: 't1', text: 'two' }),
  );
  expect(s.liveTools.get('t1')).toEqual({ status: 'running', output: 'one two' });
  s = reduce(s, { type: 'approvalRequested', sessionId: S, questionId: 'q1', toolCallId: 't1' });
  expect(s.liveTools.get('t1')?.status).toBe('awaiting');
  s = reduce(s, { type: 'approvalSettled', questionId: 'q1', answer: 'deny' });
  expect(s.liveTools.get('t1')?.status).toBe('denied');
  expect(s.asked.size).toBe(0);
  expect(reduce(s, { type: 'approvalSettled', questionId: 'unknown', answer: 'once' })).toBe(s);
  s = reduce(s, agent({ type: 'tool_execution_end', toolCallId: 't1', entry: entry('b', 'a') }));
  expect(s.liveTools.has('t1')).toBe(false);
  expect(ids(s)).toEqual(['a', 'b']);
  s = reduce(s, agent({ type: 'agent_end', reason: 'max_iterations' }));
  expect(s.lastError).toBe('The run stopped (max iterations).');
  expect(reduce(s, agent({ type: 'agent_start' })).lastError).toBeNull();
  const settled = reduce(s, agent({ type: 'agent_settled' }));
  expect(settled).toMatchObject({ running: false, streaming: null });
});

test('a moved leaf or a reconnect reads the branch again; a reconnect also forgets the live run', () => {
  const s = reduce(loaded(entry('a', null)), agent({ type: 'message_start' }));
  expect(reduce(s, { type: 'branched', sessionId: S, leafId: 'a' })).toBe(s);
  expect(reloadPending(reduce(s, { type: 'branched', sessionId: S, leafId: 'x' }))).toBe(true);
  const back = reduce(s, { type: 'reconnected' });
  expect(back).toMatchObject({ running: false, streaming: null, loading: true });
  expect(reloadPending(back)).toBe(true);
});

test('the reducer never changes the state it is given', () => {
  const s = loaded(entry('a', null));
  const frozen = structuredClone({ ...s, liveTools: [...s.liveTools], asked: [...s.asked] });
  reduce(s, agent({ type: 'entry_appended', entry: entry('b', 'a') }), agent({ type: 'tool_execution_start', toolCallId: 't' }), { type: 'reloadRequested' });
  expect({ ...s, liveTools: [...s.liveTools], asked: [...s.asked] }).toEqual(frozen);
});

test('the silent confirm turn is a state of its own: from confirm_start until the next reply starts or the run ends', () => {
  const running = reduce(loaded(entry('a', null)), agent({ type: 'agent_start' }));
  const checking = reduce(running, agent({ type: 'confirm_start' }));
  expect(checking).toMatchObject({ running: true, checking: true });
  // The confirm turn's own (hidden) entry does not end it.
  expect(reduce(checking, agent({ type: 'entry_appended', entry: entry('c', 'a') })).checking).toBe(true);
  // "continue": the next reply starts; "done": the run ends.
  expect(reduce(checking, agent({ type: 'message_start', role: 'assistant' })).checking).toBe(false);
  expect(reduce(checking, agent({ type: 'agent_end', reason: 'stop' }), agent({ type: 'agent_settled' }))).toMatchObject({ running: false, checking: false });
});
