import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';

const KEY = ['conversationSettings'] as const;

/** Settings' switch of generated titles: whether a conversation is named by its model after the first reply. */
export function TitlesSection() {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const labelId = useId();
  const { data, error } = useQuery({ queryKey: KEY, queryFn: () => api.call('conversations.settings', {}), staleTime: 0 });
  useEffect(() => {
    if (error) toasts.error('Could not read whether conversations get titles', error);
  }, [error, toasts]);
  const set = async (autoTitle: boolean) => {
    try {
      queries.setQueryData(KEY, await api.call('conversations.setAutoTitle', { autoTitle }));
    } catch (e) {
      toasts.error('Could not change the titles switch', e);
    }
  };
  const on = data?.autoTitle ?? true;
  return (
    <section className="settings-section" aria-labelledby="settings-titles" data-testid="settings-titles">
      <h2 id="settings-titles">Titles</h2>
      <div className="plugin-list">
        <div className="plugin-row">
          <div className="plugin-main">
            <strong id={labelId}>Name new conversations</strong>
            <p className="plugin-desc">
              After the first reply, the conversation's model suggests a short title for the sidebar (one more small request). A name you give yourself always
              stays. Also /set conversations.autoTitle on|off.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby={labelId}
            className={`switch${on ? ' is-on' : ''}`}
            disabled={data === undefined}
            onClick={() => void set(!on)}
            data-testid="auto-title-enabled"
          >
            <span />
          </button>
        </div>
      </div>
    </section>
  );
}
