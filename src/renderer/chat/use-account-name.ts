import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';

/**
 * The name of the saved connection a reply came from (its entry's `accountId`), from the same cached
 * `providers.connections` Settings lists; undefined for a reply stored before replies named their account,
 * or whose connection is no longer saved (its footer names the model only, as before).
 */
export function useAccountName(accountId: string | undefined): string | undefined {
  const api = useApi();
  const connections = useQuery({
    queryKey: serverKeys.providerConnections,
    queryFn: () => api.call('providers.connections', {}),
    enabled: accountId !== undefined,
  }).data;
  return accountId === undefined ? undefined : connections?.find((c) => c.id === accountId)?.name;
}
