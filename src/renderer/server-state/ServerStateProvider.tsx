import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useApi } from '../api/index.ts';
import { bindApiEvents } from './bind-api-events.ts';
import { createServerQueryClient } from './server-query-client.ts';

/** The server-state cache for everything below, kept current by main's events while mounted. */
export function ServerStateProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const [queries] = useState(createServerQueryClient);
  useEffect(() => bindApiEvents(api, queries), [api, queries]);
  return <QueryClientProvider client={queries}>{children}</QueryClientProvider>;
}
