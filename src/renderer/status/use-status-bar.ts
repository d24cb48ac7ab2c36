import { useEffect, useState } from 'react';
import type { StatusSegmentView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';

/**
 * The status bar's segments for a session, kept live: refetched when main says the session's (or every
 * session's) segments changed, and when the session's branch moves. One request at a time; a change that
 * arrives meanwhile triggers exactly one more.
 */
export function useStatusBar(sessionId: string | null): StatusSegmentView[] {
  const api = useApi();
  const [segments, setSegments] = useState<StatusSegmentView[]>([]);

  useEffect(() => {
    let live = true;
    let inFlight = false;
    let again = false;
    const load = () => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      api
        .call('status.list', { sessionId })
        .then(
          (bar) => live && setSegments(bar.segments),
          () => {},
        )
        .finally(() => {
          inFlight = false;
          if (again && live) {
            again = false;
            load();
          }
        });
    };
    load();
    const offStatus = api.on('status.changed', (e) => {
      if (e.sessionId === null || e.sessionId === sessionId) load();
    });
    const offBranch = api.on('session.branched', (e) => {
      if (e.sessionId === sessionId) load();
    });
    const offReconnect = api.onConnectionChange((connected) => connected && load());
    return () => {
      live = false;
      offStatus();
      offBranch();
      offReconnect();
    };
  }, [api, sessionId]);

  return segments;
}
