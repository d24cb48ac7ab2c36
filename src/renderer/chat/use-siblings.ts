import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { SiblingMap } from '../../shared/api/index.ts';
import type { Entry } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

/** sessions.siblings takes at most this many ids: the newest messages shown are asked about. */
const MAX_IDS = 2000;
const NONE: SiblingMap = {};

/** The other versions of the messages shown: read when they change, again after a run or a branch move. */
export function useSiblings(sessionId: string | null, entries: readonly Entry[]): SiblingMap {
  const api = useApi();
  const toasts = useToasts();
  const ids = useMemo(
    () =>
      entries
        .filter((e) => e.type === 'message' && (e.message.role === 'user' || e.message.role === 'assistant'))
        .map((e) => e.id)
        .slice(-MAX_IDS),
    [entries],
  );
  const siblings = useQuery({
    queryKey: serverKeys.siblings(sessionId ?? '', ids),
    queryFn: () => api.call('sessions.siblings', { sessionId: sessionId!, entryIds: ids }),
    enabled: sessionId !== null && ids.length > 0,
    placeholderData: keepPreviousData,
  });
  const { error } = siblings;
  useEffect(() => {
    if (error) toasts.error('Could not load the other branches', error);
  }, [error, toasts]);
  return (sessionId !== null && siblings.data) || NONE;
}
