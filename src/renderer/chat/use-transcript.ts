import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';
import { type MessageDeltaEvent, openTranscript, transcriptReducer } from './transcript-reducer.ts';

const PAGE = 60;

/**
 * One session's branch as the transcript shows it: the state is transcriptReducer's; this hook feeds it API
 * events and pages, and reads a page whenever the reducer asks for one (reloadSeq).
 */
export function useTranscript(sessionId: string | null) {
  const api = useApi();
  const toasts = useToasts();
  const [state, dispatch] = useReducer(transcriptReducer, sessionId, openTranscript);
  // Read-only mirror for callbacks that start a request from the latest rendered state.
  const latest = useRef(state);
  latest.current = state;

  useEffect(() => dispatch({ type: 'opened', sessionId }), [sessionId]);

  // The reducer asks for a page by bumping reloadSeq; only the newest request's page is kept.
  const { sessionId: sid, reloadSeq } = state;
  useEffect(() => {
    if (sid === null || reloadSeq === 0) return;
    api.call('sessions.page', { sessionId: sid, limit: PAGE }).then(
      (page) =>
        dispatch({
          type: 'pageLoaded',
          sessionId: sid,
          seq: reloadSeq,
          page: { entries: page.entries, leafId: page.leafId, before: page.before, changed: page.integrity.changed },
        }),
      (e: unknown) => {
        dispatch({ type: 'pageFailed', sessionId: sid, seq: reloadSeq });
        toasts.error('Could not open the conversation', e);
      },
    );
  }, [api, toasts, sid, reloadSeq]);

  const reload = useCallback(() => dispatch({ type: 'reloadRequested' }), []);

  const loadOlder = useCallback(async () => {
    const s = latest.current;
    if (!s.sessionId || !s.before || s.loadingOlder || s.loading) return;
    const { sessionId: id, before } = s;
    dispatch({ type: 'olderRequested' });
    try {
      const page = await api.call('sessions.page', { sessionId: id, before, limit: PAGE });
      dispatch({ type: 'olderLoaded', sessionId: id, before, page: { entries: page.entries, before: page.before } });
    } catch (e) {
      dispatch({ type: 'olderFailed' });
      toasts.error('Could not load older messages', e);
    }
  }, [api, toasts]);

  useEffect(() => {
    // Streamed deltas are applied once per frame, not once per token.
    let pending: MessageDeltaEvent[] = [];
    let frame: number | null = null;
    /** `runId plugin` pairs whose hook failure was shown. */
    const hookErrorsShown = new Set<string>();
    const flush = () => {
      frame = null;
      if (pending.length === 0) return;
      const deltas = pending;
      pending = [];
      dispatch({ type: 'deltas', deltas });
    };
    const offs = [
      api.on('agent.emitted', (event) => {
        if (event.type === 'message_update') {
          pending.push(event);
          frame ??= requestAnimationFrame(flush);
          return;
        }
        if (event.type === 'message_start' || event.type === 'agent_settled') flush();
        if (event.type === 'message_end') pending = pending.filter((d) => d.sessionId !== event.sessionId);
        if (event.type === 'notice' && event.sessionId === latest.current.sessionId)
          // A provider's successive notices in one run (a retry, then the next) replace each other's toast.
          toasts.push({
            kind: 'info',
            title: 'Worth knowing',
            message: event.message,
            ...(event.code === 'provider_notice' ? { key: `provider notice ${event.runId}` } : {}),
          });
        if (event.type === 'extension_error' && event.sessionId === latest.current.sessionId) {
          // Once per plugin and run: a hook that fails on every call must not flood the window.
          const key = `${event.runId} ${event.pluginId}`;
          if (!hookErrorsShown.has(key)) {
            hookErrorsShown.add(key);
            toasts.push({ kind: 'error', title: `The plugin '${event.pluginId}' was skipped`, message: event.message });
          }
          return;
        }
        if (event.type === 'session_start') return;
        dispatch({ type: 'agentEvent', event });
      }),
      api.on('approval.requested', (q) => dispatch({ type: 'approvalRequested', sessionId: q.sessionId, questionId: q.id, toolCallId: q.toolCallId })),
      api.on('approval.settled', ({ questionId, answer }) => dispatch({ type: 'approvalSettled', questionId, answer })),
      api.on('session.leafMoved', ({ sessionId: id, leafId }) => dispatch({ type: 'branched', sessionId: id, leafId })),
      api.onConnectionChange((connected) => connected && dispatch({ type: 'reconnected' })),
    ];
    return () => {
      for (const off of offs) off();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [api, toasts]);

  return { state, reload, loadOlder };
}
