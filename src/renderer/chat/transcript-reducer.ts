import type { AgentEvent, ApprovalAnswer } from '../../shared/agent/index.ts';
import type { Entry } from '../../shared/sessions/index.ts';
import type { ToolCallView } from './transcript-model.ts';

export interface StreamingReply {
  text: string;
  thinking: string;
  tools: ToolCallView[];
}

export type MessageDeltaEvent = Extract<AgentEvent, { type: 'message_update' }>;

/** One page of a branch as sessions.page answers it. */
export interface TranscriptPage {
  entries: Entry[];
  leafId: string | null;
  /** Pass to sessions.page to load older entries; null once the root is loaded. */
  before: string | null;
  /** Entries changed outside Amber; any makes the session read-only. */
  changed: string[];
}

export interface TranscriptState {
  sessionId: string | null;
  entries: Entry[];
  /** Pass to sessions.page to load older entries; null once the root is loaded. */
  before: string | null;
  leafId: string | null;
  /** Entries changed outside Amber, as the first page reported them; any makes the session read-only. */
  changed: string[];
  loading: boolean;
  loadingOlder: boolean;
  running: boolean;
  /** The run is asking the model, unseen, whether the task is finished (the confirm turn). */
  checking: boolean;
  streaming: StreamingReply | null;
  liveTools: ReadonlyMap<string, Partial<ToolCallView>>;
  lastError: string | null;
  /** Bumped on every full reload so the view can scroll to the end. */
  generation: number;
  /** Open approval questions of this session: question id → tool call id. */
  asked: ReadonlyMap<string, string>;
  /**
   * Bumped whenever the branch must be read from its leaf again; the page answering the newest request is
   * the only one kept. While `loadedSeq` lags behind, a reload is pending.
   */
  reloadSeq: number;
  loadedSeq: number;
  /** Entries that arrived while a reload was pending; they are laid on the fresh page. */
  arrived: Entry[];
}

export type TranscriptAction =
  | { type: 'opened'; sessionId: string | null }
  | { type: 'reloadRequested' }
  | { type: 'pageLoaded'; sessionId: string; seq: number; page: TranscriptPage }
  | { type: 'pageFailed'; sessionId: string; seq: number }
  | { type: 'olderRequested' }
  | { type: 'olderLoaded'; sessionId: string; before: string; page: Pick<TranscriptPage, 'entries' | 'before'> }
  | { type: 'olderFailed' }
  | { type: 'agentEvent'; event: AgentEvent }
  | { type: 'deltas'; deltas: readonly MessageDeltaEvent[] }
  | { type: 'approvalRequested'; sessionId: string; questionId: string; toolCallId: string }
  | { type: 'approvalSettled'; questionId: string; answer: ApprovalAnswer }
  | { type: 'branched'; sessionId: string; leafId: string | null }
  | { type: 'reconnected' };

/** A fresh transcript for a session: with a session, its first page is asked for at once. */
export function openTranscript(sessionId: string | null): TranscriptState {
  return {
    sessionId,
    entries: [],
    before: null,
    leafId: null,
    changed: [],
    loading: sessionId !== null,
    loadingOlder: false,
    running: false,
    checking: false,
    streaming: null,
    liveTools: new Map(),
    lastError: null,
    generation: 0,
    asked: new Map(),
    reloadSeq: sessionId !== null ? 1 : 0,
    loadedSeq: 0,
    arrived: [],
  };
}

/** True while a reload is asked for or on its way: arriving entries wait for the fresh page. */
export const reloadPending = (s: TranscriptState): boolean => s.loadedSeq !== s.reloadSeq;

const requestReload = (s: TranscriptState): TranscriptState => (s.sessionId === null ? s : { ...s, reloadSeq: s.reloadSeq + 1, loading: true });

function applyDelta(reply: StreamingReply, event: MessageDeltaEvent): StreamingReply {
  const d = event.delta;
  if (d.kind === 'text') return { ...reply, text: reply.text + d.text };
  if (d.kind === 'thinking') return { ...reply, thinking: reply.thinking + d.text };
  const tools = [...reply.tools];
  const existing = tools[d.index];
  tools[d.index] = existing
    ? { ...existing, id: d.id ?? existing.id, name: d.name ?? existing.name, argsText: (existing.argsText ?? '') + d.argumentsDelta }
    : { id: d.id ?? `#${d.index}`, name: d.name ?? 'tool', args: undefined, argsText: d.argumentsDelta, status: 'streaming', output: '' };
  return { ...reply, tools };
}

/** An entry the run wrote: appended under the leaf, kept for the fresh page during a reload, else a reload. */
function append(s: TranscriptState, entry: Entry): TranscriptState {
  if (s.entries.some((e) => e.id === entry.id)) return s;
  if (reloadPending(s)) return s.arrived.some((e) => e.id === entry.id) ? s : { ...s, arrived: [...s.arrived, entry] };
  // The run forked somewhere this view does not show: read the branch again from its leaf.
  if (entry.parentId !== s.leafId) return requestReload(s);
  return { ...s, entries: [...s.entries, entry], leafId: entry.id };
}

const withLiveTool = (s: TranscriptState, toolCallId: string, tool: Partial<ToolCallView>): TranscriptState => ({
  ...s,
  liveTools: new Map(s.liveTools).set(toolCallId, tool),
});

function onAgentEvent(s0: TranscriptState, event: AgentEvent): TranscriptState {
  if (event.sessionId !== s0.sessionId) return s0;
  // A run seen mid-way (a reload or reconnect during it) is still a run: the window offers Stop.
  const s = !s0.running && event.type !== 'agent_end' && event.type !== 'agent_settled' ? { ...s0, running: true } : s0;
  switch (event.type) {
    case 'agent_start':
      return { ...s, running: true, checking: false, lastError: null };
    case 'confirm_start':
      return { ...s, checking: true };
    case 'message_start':
      return { ...s, checking: false, streaming: { text: '', thinking: '', tools: [] } };
    case 'message_update':
      return { ...s, streaming: applyDelta(s.streaming ?? { text: '', thinking: '', tools: [] }, event) };
    case 'message_end':
      return append({ ...s, streaming: null }, event.entry);
    case 'tool_execution_start':
      return withLiveTool(s, event.toolCallId, { status: 'running', output: '' });
    case 'tool_execution_update':
      return withLiveTool(s, event.toolCallId, { status: 'running', output: (s.liveTools.get(event.toolCallId)?.output ?? '') + event.text });
    case 'tool_execution_end': {
      const liveTools = new Map(s.liveTools);
      liveTools.delete(event.toolCallId);
      return append({ ...s, liveTools }, event.entry);
    }
    case 'entry_appended':
      return append(s, event.entry);
    case 'agent_end':
      if (event.reason === 'stop' || event.reason === 'aborted') return { ...s, checking: false };
      return { ...s, checking: false, lastError: event.error ?? `The run stopped (${event.reason.replace('_', ' ')}).` };
    case 'agent_settled':
      return { ...s, running: false, checking: false, streaming: null, liveTools: new Map() };
    default:
      return s;
  }
}

/** One session's branch as the transcript shows it: paged from the leaf upward, kept live by agent events. Pure. */
export function transcriptReducer(s: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case 'opened':
      return action.sessionId === s.sessionId ? s : openTranscript(action.sessionId);
    case 'reloadRequested':
      return requestReload(s);
    case 'pageLoaded': {
      // An older request's page, or another session's, is stale: a newer page is on its way.
      if (action.sessionId !== s.sessionId || action.seq !== s.reloadSeq) return s;
      let { entries, leafId } = action.page;
      let stale = false;
      for (const e of s.arrived) {
        if (entries.some((x) => x.id === e.id)) continue;
        if (e.parentId === leafId) {
          entries = [...entries, e];
          leafId = e.id;
        } else stale = true;
      }
      const next: TranscriptState = {
        ...s,
        entries,
        leafId,
        changed: action.page.changed,
        before: action.page.before,
        loading: false,
        generation: s.generation + 1,
        loadedSeq: action.seq,
        arrived: [],
      };
      return stale ? requestReload(next) : next;
    }
    case 'pageFailed':
      // The entries that arrived meanwhile stay, for the next reload to lay on its page.
      if (action.sessionId !== s.sessionId || action.seq !== s.reloadSeq) return s;
      return { ...s, loading: false, loadedSeq: action.seq };
    case 'olderRequested':
      return s.sessionId === null || s.before === null || s.loading || s.loadingOlder ? s : { ...s, loadingOlder: true };
    case 'olderLoaded':
      if (action.sessionId !== s.sessionId || action.before !== s.before) return { ...s, loadingOlder: false };
      return { ...s, entries: [...action.page.entries, ...s.entries], before: action.page.before, loadingOlder: false };
    case 'olderFailed':
      return { ...s, loadingOlder: false };
    case 'agentEvent':
      return onAgentEvent(s, action.event);
    case 'deltas': {
      const mine = action.deltas.filter((d) => d.sessionId === s.sessionId);
      if (mine.length === 0) return s;
      let reply = s.streaming ?? { text: '', thinking: '', tools: [] };
      for (const d of mine) reply = applyDelta(reply, d);
      return { ...s, streaming: reply };
    }
    case 'approvalRequested': {
      if (action.sessionId !== s.sessionId) return s;
      const asked = new Map(s.asked).set(action.questionId, action.toolCallId);
      return { ...withLiveTool(s, action.toolCallId, { ...s.liveTools.get(action.toolCallId), status: 'awaiting' }), asked };
    }
    case 'approvalSettled': {
      const toolCallId = s.asked.get(action.questionId);
      if (toolCallId === undefined) return s;
      const asked = new Map(s.asked);
      asked.delete(action.questionId);
      const tool = s.liveTools.get(toolCallId);
      return tool ? { ...withLiveTool(s, toolCallId, { ...tool, status: action.answer === 'deny' ? 'denied' : 'running' }), asked } : { ...s, asked };
    }
    case 'branched':
      return action.sessionId === s.sessionId && action.leafId !== s.leafId ? requestReload(s) : s;
    case 'reconnected':
      // Events missed while the connection was down: read the branch again.
      return requestReload({ ...s, running: false, checking: false, streaming: null, liveTools: new Map() });
  }
}
