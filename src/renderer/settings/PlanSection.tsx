import { useId } from 'react';
import { useApi } from '../api/index.ts';
import { useSettingsChannel } from '../server-state/index.ts';

const KEY = ['planSettings'] as const;

/** The switch of the todo tool: whether the agent may keep a plan, shown above the message box. */
export function PlanSection() {
  const api = useApi();
  const labelId = useId();
  const { data, save: set } = useSettingsChannel(
    KEY,
    { read: 'whether the agent keeps a plan', write: 'the plan switch' },
    () => api.call('plan.settings', {}),
    (enabled: boolean) => api.call('plan.setEnabled', { enabled }),
  );
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
