import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApprovalAnswer, ApprovalQuestion, ApprovalScope } from '../../shared/agent/index.ts';
import { ApiError } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

const NONE: ApprovalQuestion[] = [];

/**
 * The tool calls waiting for the user's answer, oldest first (read when the window connects, then kept by
 * main's approval events), and the one way to answer one: the dialog and the tool cards' buttons both use it.
 */
export function useApprovalQueue() {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const list = useQuery({ queryKey: serverKeys.approvals, queryFn: () => api.call('approvals.list', {}), staleTime: Number.POSITIVE_INFINITY });
  const queue = list.data ?? NONE;
  const drop = useCallback((id: string) => queries.setQueryData<ApprovalQuestion[]>(serverKeys.approvals, (l) => l?.filter((x) => x.id !== id)), [queries]);
  /** Answers a question; one already answered elsewhere (or whose run ended) just leaves the list. */
  const answer = useCallback(
    async (question: ApprovalQuestion, decision: ApprovalAnswer, scope?: ApprovalScope): Promise<void> => {
      try {
        const always = decision === 'always_tool' || decision === 'always_folder';
        await api.call('approvals.answer', { questionId: question.id, answer: decision, ...(always && scope ? { scope } : {}) });
        drop(question.id);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'not_found') drop(question.id);
        else toasts.error('Could not answer the approval', e);
      }
    },
    [api, drop, toasts],
  );
  return { queue, answer };
}
