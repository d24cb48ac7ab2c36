import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { ApiOutput } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

type Models = ApiOutput<'chat.models'>;
const keyOf = (m: { provider: string; modelId: string }) => `${m.provider}/${m.modelId}`;

/**
 * The conversation's model: every model of every set-up provider, grouped by provider. A switch is a
 * model_change entry on the branch (the next reply uses it); /model does the same.
 */
export function ModelControl({ sessionId, onShown }: { sessionId: string; onShown?(shown: boolean): void }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  // Read on sight (a provider set up meanwhile), and again when the branch moves or a plugin comes or goes.
  const data: Models | null =
    useQuery({ queryKey: serverKeys.models(sessionId), queryFn: () => api.call('chat.models', { sessionId }), staleTime: 0 }).data ?? null;
  const id = useId();

  const shown = !!data && data.models.length > 0;
  useEffect(() => onShown?.(shown), [onShown, shown]);
  if (!data || !shown) return null;
  const current = data.current ? keyOf(data.current) : '';
  const providers = [...new Set(data.models.map((m) => m.provider))];
  const listed = data.models.some((m) => keyOf(m) === current);
  return (
    <label className="thinking-control" htmlFor={id} title="The model the next reply comes from">
      <span className="visually-hidden">Model</span>
      <select
        id={id}
        value={current}
        onChange={(e) => {
          const chosen = data.models.find((m) => keyOf(m) === e.target.value);
          if (!chosen) return;
          api.call('chat.setModel', { sessionId, provider: chosen.provider, modelId: chosen.modelId }).then(
            (r) => queries.setQueryData<Models>(serverKeys.models(sessionId), (d) => (d ? { ...d, current: r.current } : d)),
            (err: unknown) => toasts.error('Could not switch the model', err),
          );
        }}
        data-testid="model-select"
      >
        {!listed && current && <option value={current}>{current}</option>}
        {providers.map((p) => (
          <optgroup key={p} label={p}>
            {data.models
              .filter((m) => m.provider === p)
              .map((m) => (
                <option key={keyOf(m)} value={keyOf(m)}>
                  {m.name}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
