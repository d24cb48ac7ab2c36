import { useEffect, useId, useState } from 'react';
import type { ApiOutput } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
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
  const [data, setData] = useState<Models | null>(null);
  const id = useId();

  useEffect(() => {
    let live = true;
    const load = () =>
      api.call('chat.models', { sessionId }).then(
        (r) => live && setData(r),
        () => {},
      );
    void load();
    const offBranch = api.on('session.branched', (e) => e.sessionId === sessionId && void load());
    const offPlugins = api.on('plugins.changed', () => void load());
    return () => {
      live = false;
      offBranch();
      offPlugins();
    };
  }, [api, sessionId]);

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
            (r) => setData({ ...data, current: r.current }),
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
