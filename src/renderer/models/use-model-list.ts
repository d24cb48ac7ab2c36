import { useQuery } from '@tanstack/react-query';
import type { ModelList } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';

/**
 * Every model of every account, grouped by account (`models.list`), for the forms that need no open
 * conversation: a scheduled task's and a project's. Read again when a plugin brings or takes models.
 */
export function useModelList(): ModelList | undefined {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.modelList, queryFn: () => api.call('models.list', {}), staleTime: 0 }).data;
}
