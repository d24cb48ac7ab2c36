import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of server state. Entries never go stale by time (a query that must be read each time it
 * is shown says so with staleTime 0): API events replace or invalidate them (bind-api-events.ts), and a
 * reconnect invalidates all. No retries: a failed read says so at once.
 */
export function createServerQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Number.POSITIVE_INFINITY, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    },
  });
}
