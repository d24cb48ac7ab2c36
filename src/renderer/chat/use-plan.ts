import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PlanView } from '../../shared/plan/index.ts';
import { useApi } from '../api/index.ts';

const planKey = (sessionId: string) => ['plan', sessionId] as const;

/**
 * The plan of the conversation's current branch: read once with plan.get, then replaced by each plan.changed
 * main sends for it (a plan written, another branch shown). A reconnect reads everything again.
 */
export function usePlan(sessionId: string): PlanView | undefined {
  const api = useApi();
  const queries = useQueryClient();
  const { data } = useQuery({ queryKey: planKey(sessionId), queryFn: () => api.call('plan.get', { sessionId }) });
  useEffect(
    () =>
      api.on('plan.changed', (view) => {
        if (view.sessionId !== sessionId) return;
        // A read still on its way answers for an older moment than this.
        void queries.cancelQueries({ queryKey: planKey(sessionId), exact: true });
        queries.setQueryData<PlanView>(planKey(sessionId), view);
      }),
    [api, queries, sessionId],
  );
  return data;
}
