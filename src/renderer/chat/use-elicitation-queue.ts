import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../shared/api/index.ts';
import type { ElicitationAnswer, ElicitationQuestion } from '../../shared/elicitation/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';

const NONE: ElicitationQuestion[] = [];

/**
 * The forms plugins ask the user to fill (an MCP server's elicitation), oldest first: read when the window
 * connects, then kept by main's elicitation events. `answer` sends one; it resolves with main's refusal in words
 * (a value the form does not take: the form stays open), or null once it is answered (or was, elsewhere).
 */
export function useElicitationQueue() {
  const api = useApi();
  const queries = useQueryClient();
  const list = useQuery({ queryKey: serverKeys.elicitations, queryFn: () => api.call('elicitations.list', {}), staleTime: Number.POSITIVE_INFINITY });
  const queue = list.data ?? NONE;
  const drop = useCallback(
    (id: string) => queries.setQueryData<ElicitationQuestion[]>(serverKeys.elicitations, (l) => l?.filter((x) => x.id !== id)),
    [queries],
  );
  const answer = useCallback(
    async (question: ElicitationQuestion, reply: ElicitationAnswer): Promise<string | null> => {
      try {
        await api.call('elicitations.answer', { questionId: question.id, answer: reply });
        drop(question.id);
        return null;
      } catch (e) {
        if (e instanceof ApiError && e.code === 'not_found') {
          drop(question.id);
          return null;
        }
        return e instanceof Error ? e.message : String(e);
      }
    },
    [api, drop],
  );
  return { queue, answer };
}
