import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/Toasts.tsx';

const LIMIT = 10_000;

/** The sessions list (newest first), filtered by a search query, kept current by session events. */
export function useSessions() {
  const api = useApi();
  const toasts = useToasts();
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [query, setQuery] = useState('');
  const [loading, setLoading] = useState(true);
  const requestNo = useRef(0);

  const refresh = useCallback(
    async (q: string) => {
      const no = ++requestNo.current;
      try {
        const list = await api.call('sessions.list', { query: q || undefined, limit: LIMIT });
        if (no === requestNo.current) setSessions(list.sessions);
      } catch (e) {
        toasts.error('Could not list the conversations', e);
      } finally {
        if (no === requestNo.current) setLoading(false);
      }
    },
    [api, toasts],
  );

  useEffect(() => {
    const t = setTimeout(() => void refresh(query), query ? 150 : 0);
    return () => clearTimeout(t);
  }, [query, refresh]);

  // After a lost connection the list may be stale: read it again.
  useEffect(() => api.onConnectionChange((connected) => connected && void refresh(query)), [api, refresh, query]);

  useEffect(() => {
    const upsert = (s: SessionSummary) =>
      setSessions((all) => {
        const rest = all.filter((x) => x.id !== s.id);
        return [s, ...rest].sort((a, b) => b.updatedAt - a.updatedAt);
      });
    const offs = [
      api.on('session.created', upsert),
      api.on('session.updated', upsert),
      api.on('session.deleted', ({ sessionId }) => setSessions((all) => all.filter((x) => x.id !== sessionId))),
      api.on('agent.emitted', (e) => {
        const firstPrompt = e.type === 'entry_appended' && e.entry.type === 'message' && e.entry.message.role === 'user';
        if (e.type === 'agent_settled' || firstPrompt) void api.call('sessions.get', { sessionId: e.sessionId }).then(upsert, () => {});
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [api]);

  return { sessions, query, setQuery, loading, refresh: () => refresh(query) };
}
