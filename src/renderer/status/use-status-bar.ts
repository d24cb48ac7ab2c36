import { useQuery } from '@tanstack/react-query';
import type { StatusSegmentView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';

const NONE: StatusSegmentView[] = [];

/**
 * The status bar's segments for a session: read once, then replaced by the views status.changed carries
 * (a session's bar, or the plugins' segments for every session); read again when the branch moves.
 */
export function useStatusBar(sessionId: string | null): StatusSegmentView[] {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.status(sessionId), queryFn: () => api.call('status.list', { sessionId }) }).data?.segments ?? NONE;
}
