import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of server state. Entries never go stale by time: API events replace or invalidate them
 * (bind-api-events.ts), and a reconnect invalidates all. No retries: a failed read says so at once.
 */
export function createServerQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Number.POSITIVE_INFINITY, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    },
  });
}
