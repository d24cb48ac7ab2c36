import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

const LIMIT = 10_000;
/** Typing in the search box asks main once the typing pauses. */
const SEARCH_DELAY_MS = 150;
const NONE: SessionSummary[] = [];

/** The sessions list (newest first), filtered by a search query, kept current by session events. */
export function useSessions() {
  const api = useApi();
  const toasts = useToasts();
  const [query, setQuery] = useState('');
  const [asked, setAsked] = useState('');
  useEffect(() => {
    if (!query) return setAsked('');
    const t = setTimeout(() => setAsked(query), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [query]);
  const list = useQuery({
    queryKey: serverKeys.sessions(asked),
    queryFn: () => api.call('sessions.list', { query: asked || undefined, limit: LIMIT }),
    placeholderData: keepPreviousData,
    // Each search (and the way back to the whole list) asks main again, as typing did before.
    staleTime: 0,
  });
  const { error } = list;
  useEffect(() => {
    if (error) toasts.error('Could not list the conversations', error);
  }, [error, toasts]);
  return { sessions: list.data?.sessions ?? NONE, query, setQuery, loading: list.isPending };
}
