import { createContext, type ReactNode, useContext } from 'react';
import type { AmberClient } from './amber-client.ts';

const ApiContext = createContext<AmberClient | null>(null);

export function ApiProvider({ client, children }: { client: AmberClient; children: ReactNode }) {
  return <ApiContext value={client}>{children}</ApiContext>;
}

export function useApi(): AmberClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi outside ApiProvider');
  return client;
}
