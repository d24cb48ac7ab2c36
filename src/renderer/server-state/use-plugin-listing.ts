import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/index.ts';
import { serverKeys } from './server-keys.ts';

/** The plugins listing (plugins, user folder, problems); plugins.changed lays each plugin's new view in it. */
export function usePluginListing() {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.plugins, queryFn: () => api.call('plugins.list', {}) });
}
