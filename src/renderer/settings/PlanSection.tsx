import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useApi } from '../api/index.ts';
import { useToasts } from '../ui/index.ts';

const KEY = ['planSettings'] as const;

/** The switch of the todo tool: whether the agent may keep a plan, shown above the message box. */
export function PlanSection() {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const labelId = useId();
  const { data, error } = useQuery({ queryKey: KEY, queryFn: () => api.call('plan.settings', {}), staleTime: 0 });
  useEffect(() => {
    if (error) toasts.error('Could not read whether the agent keeps a plan', error);
  }, [error, toasts]);
  const set = async (enabled: boolean) => {
    try {
      queries.setQueryData(KEY, await api.call('plan.setEnabled', { enabled }));
    } catch (e) {
      toasts.error('Could not change the plan switch', e);
    }
  };
  const on = data?.enabled ?? false;
  return (
    <section className="settings-section" aria-labelledby="settings-plan" data-testid="settings-plan">
      <h2 id="settings-plan">Plan</h2>
      <div className="plugin-list">
        <div className="plugin-row">
          <div className="plugin-main">
            <strong id={labelId}>Let the agent keep a plan</strong>
            <p className="plugin-desc">
              With the todo tool the agent writes a short checklist for a task of several steps and ticks it off as it goes; it shows above the message box.
              Each branch of a conversation keeps its own. Also /set agent.todo on|off.
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
            data-testid="plan-enabled"
          >
            <span />
          </button>
        </div>
      </div>
    </section>
  );
}
