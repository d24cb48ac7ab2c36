import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';

/**
 * Whether the conversation's model reads images, as the catalog says (null: it does not say), from the same
 * cached `chat.models` the model picker shows; undefined until it is known or with no conversation open.
 */
export function useImageSupport(sessionId: string | null): { modelName: string; accepted: boolean | null } | undefined {
  const api = useApi();
  const data = useQuery({
    queryKey: serverKeys.models(sessionId ?? ''),
    queryFn: () => api.call('chat.models', { sessionId: sessionId! }),
    enabled: sessionId !== null,
    staleTime: 0,
  }).data;
  const current = data?.current;
  if (!current) return undefined;
  const model = data.models.find((m) => m.provider === current.provider && m.modelId === current.modelId);
  return { modelName: model?.name ?? current.modelId, accepted: model?.images ?? null };
}
