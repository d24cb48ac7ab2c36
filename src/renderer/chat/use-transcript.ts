import { useCallback, useEffect, useRef, useState } from 'react';
import type { AgentEvent } from '../../shared/agent/index.ts';
import type { SiblingMap } from '../../shared/api/index.ts';
import type { Entry } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/Toasts.tsx';
import type { ToolCallView } from './transcript-model.ts';

const PAGE = 60;

export interface StreamingReply {
  text: string;
  thinking: string;
  tools: ToolCallView[];
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
  siblings: SiblingMap;
  running: boolean;
  streaming: StreamingReply | null;
  liveTools: Map<string, Partial<ToolCallView>>;
  lastError: string | null;
  /** Bumped on every full reload so the view can scroll to the end. */
  generation: number;
}

const empty = (sessionId: string | null): TranscriptState => ({
  sessionId,
  entries: [],
  before: null,
  leafId: null,
  changed: [],
  loading: sessionId !== null,
  loadingOlder: false,
  siblings: {},
  running: false,
  streaming: null,
  liveTools: new Map(),
  lastError: null,
  generation: 0,
});

const siblingCandidates = (entries: readonly Entry[]): string[] =>
  entries.filter((e) => e.type === 'message' && (e.message.role === 'user' || e.message.role === 'assistant')).map((e) => e.id);

function applyDelta(reply: StreamingReply, event: Extract<AgentEvent, { type: 'message_update' }>): StreamingReply {
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

/** One session's branch as the transcript shows it: paged from the leaf upward, kept live by agent events. */
export function useTranscript(sessionId: string | null) {
  const api = useApi();
  const toasts = useToasts();
  const [state, setState] = useState<TranscriptState>(() => empty(sessionId));
  const stateRef = useRef(state);
  stateRef.current = state;
  const pendingDeltas = useRef<Extract<AgentEvent, { type: 'message_update' }>[]>([]);
  const frame = useRef<number | null>(null);
  /** Open approval questions of this session: question id → tool call id. */
  const asked = useRef(new Map<string, string>());
  /** `runId plugin` pairs whose hook failure was shown: once per plugin and run. */
  const hookErrorsShown = useRef(new Set<string>());

  const loadSiblings = useCallback(
    async (sid: string, entries: readonly Entry[]) => {
      const ids = siblingCandidates(entries);
      if (ids.length === 0) return;
      try {
        const map = await api.call('sessions.siblings', { sessionId: sid, entryIds: ids });
        setState((s) => (s.sessionId === sid ? { ...s, siblings: { ...s.siblings, ...map } } : s));
      } catch (e) {
        toasts.error('Could not load the other branches', e);
      }
    },
    [api, toasts],
  );

  // Entries that arrive while the branch is being read again wait here, and are laid on the fresh page.
  const reloading = useRef(0);
  const arrivedDuringReload = useRef<Entry[]>([]);

  const reload = useCallback(async (): Promise<void> => {
    const sid = stateRef.current.sessionId;
    if (!sid) return;
    reloading.current++;
    setState((s) => ({ ...s, loading: true }));
    try {
      const page = await api.call('sessions.page', { sessionId: sid, limit: PAGE });
      let entries = page.entries;
      let leafId = page.leafId;
      let stale = false;
      if (--reloading.current === 0) {
        for (const e of arrivedDuringReload.current.splice(0)) {
          if (entries.some((x) => x.id === e.id)) continue;
          if (e.parentId === leafId) {
            entries = [...entries, e];
            leafId = e.id;
          } else stale = true;
        }
      }
      const next = { entries, leafId, changed: page.integrity.changed };
      setState((s) => (s.sessionId === sid ? { ...s, ...next, before: page.before, loading: false, siblings: {}, generation: s.generation + 1 } : s));
      stateRef.current = { ...stateRef.current, ...next };
      void loadSiblings(sid, entries);
      if (stale) void reload();
    } catch (e) {
      reloading.current = Math.max(0, reloading.current - 1);
      setState((s) => ({ ...s, loading: false }));
      toasts.error('Could not open the conversation', e);
    }
  }, [api, toasts, loadSiblings]);

  const loadOlder = useCallback(async () => {
    const s0 = stateRef.current;
    if (!s0.sessionId || !s0.before || s0.loadingOlder || s0.loading) return;
    const sid = s0.sessionId;
    const before = s0.before;
    setState((s) => ({ ...s, loadingOlder: true }));
    try {
      const page = await api.call('sessions.page', { sessionId: sid, before, limit: PAGE });
      setState((s) => {
        if (s.sessionId !== sid || s.before !== before) return { ...s, loadingOlder: false };
        return { ...s, entries: [...page.entries, ...s.entries], before: page.before, loadingOlder: false };
      });
      void loadSiblings(sid, page.entries);
    } catch (e) {
      setState((s) => ({ ...s, loadingOlder: false }));
      toasts.error('Could not load older messages', e);
    }
  }, [api, toasts, loadSiblings]);

  // A new session: start over.
  useEffect(() => {
    setState(empty(sessionId));
    stateRef.current = empty(sessionId);
    if (sessionId) void reload();
  }, [sessionId, reload]);

  const flushDeltas = useCallback(() => {
    frame.current = null;
    const deltas = pendingDeltas.current.splice(0);
    if (deltas.length === 0) return;
    setState((s) => {
      let reply = s.streaming ?? { text: '', thinking: '', tools: [] };
      for (const d of deltas) if (d.sessionId === s.sessionId) reply = applyDelta(reply, d);
      return { ...s, streaming: reply };
    });
  }, []);

  const append = useCallback(
    (entry: Entry) => {
      const s = stateRef.current;
      if (s.entries.some((e) => e.id === entry.id)) return;
      if (reloading.current > 0) {
        arrivedDuringReload.current.push(entry);
        return;
      }
      if (entry.parentId !== s.leafId) {
        // The run forked somewhere this view does not show: read the branch again from its leaf.
        void reload();
        return;
      }
      setState((st) => ({ ...st, entries: [...st.entries, entry], leafId: entry.id }));
      stateRef.current = { ...s, entries: [...s.entries, entry], leafId: entry.id };
    },
    [reload],
  );

  useEffect(() => {
    const offAgent = api.on('agent.emitted', (event) => {
      if (event.sessionId !== stateRef.current.sessionId || event.type === 'session_start') return;
      // A run seen mid-way (a reload or reconnect during it) is still a run: the window offers Stop.
      if (!stateRef.current.running && event.type !== 'agent_end' && event.type !== 'agent_settled') setState((s) => ({ ...s, running: true }));
      switch (event.type) {
        case 'agent_start':
          setState((s) => ({ ...s, running: true, lastError: null }));
          break;
        case 'message_start':
          flushDeltas();
          setState((s) => ({ ...s, streaming: { text: '', thinking: '', tools: [] } }));
          break;
        case 'message_update':
          pendingDeltas.current.push(event);
          frame.current ??= requestAnimationFrame(flushDeltas);
          break;
        case 'message_end':
          pendingDeltas.current.length = 0;
          setState((s) => ({ ...s, streaming: null }));
          append(event.entry);
          break;
        case 'tool_execution_start':
          setState((s) => ({ ...s, liveTools: new Map(s.liveTools).set(event.toolCallId, { status: 'running', output: '' }) }));
          break;
        case 'tool_execution_update':
          setState((s) => {
            const prev = s.liveTools.get(event.toolCallId);
            return { ...s, liveTools: new Map(s.liveTools).set(event.toolCallId, { status: 'running', output: (prev?.output ?? '') + event.text }) };
          });
          break;
        case 'tool_execution_end':
          setState((s) => {
            const live = new Map(s.liveTools);
            live.delete(event.toolCallId);
            return { ...s, liveTools: live };
          });
          append(event.entry);
          break;
        case 'entry_appended':
          append(event.entry);
          break;
        case 'agent_end':
          if (event.reason !== 'stop' && event.reason !== 'aborted') {
            const message = event.error ?? `The run stopped (${event.reason.replace('_', ' ')}).`;
            setState((s) => ({ ...s, lastError: message }));
          }
          break;
        case 'notice':
          toasts.push({ kind: 'info', title: 'Worth knowing', message: event.message });
          break;
        case 'extension_error': {
          const key = `${event.runId} ${event.pluginId}`;
          if (hookErrorsShown.current.has(key)) break;
          hookErrorsShown.current.add(key);
          toasts.push({ kind: 'error', title: `The plugin '${event.pluginId}' was skipped`, message: event.message });
          break;
        }
        case 'agent_settled': {
          flushDeltas();
          setState((s) => ({ ...s, running: false, streaming: null, liveTools: new Map() }));
          const sid = stateRef.current.sessionId;
          if (sid) void loadSiblings(sid, stateRef.current.entries.slice(-20));
          break;
        }
        default:
          break;
      }
    });
    const offAsk = api.on('approval.requested', (q) => {
      if (q.sessionId !== stateRef.current.sessionId) return;
      asked.current.set(q.id, q.toolCallId);
      setState((s) => ({ ...s, liveTools: new Map(s.liveTools).set(q.toolCallId, { ...s.liveTools.get(q.toolCallId), status: 'awaiting' }) }));
    });
    const offAnswer = api.on('approval.settled', ({ questionId, answer }) => {
      const toolCallId = asked.current.get(questionId);
      if (toolCallId === undefined) return;
      asked.current.delete(questionId);
      setState((s) => {
        const t = s.liveTools.get(toolCallId);
        return t ? { ...s, liveTools: new Map(s.liveTools).set(toolCallId, { ...t, status: answer === 'deny' ? 'denied' : 'running' }) } : s;
      });
    });
    const offBranch = api.on('session.branched', (e) => {
      if (e.sessionId === stateRef.current.sessionId && e.leafId !== stateRef.current.leafId) void reload();
    });
    // Events missed while the connection was down: read the branch again once it is back.
    const offConnection = api.onConnectionChange((connected) => {
      if (connected) {
        setState((s) => ({ ...s, running: false, streaming: null, liveTools: new Map() }));
        void reload();
      }
    });
    return () => {
      offAgent();
      offAsk();
      offAnswer();
      offBranch();
      offConnection();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    };
  }, [api, append, flushDeltas, reload, loadSiblings, toasts]);

  const setLeaf = useCallback((leafId: string | null) => setState((s) => ({ ...s, leafId })), []);

  return { state, reload, loadOlder, setLeaf };
}
